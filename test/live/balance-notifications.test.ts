/**
 * Balance changes made outside trading (deposits, withdrawals, transfers) during a living market:
 * one notification per set of assets at once, then at most one per window carrying the latest
 * balances, marked as replacing the one before. The notification settings govern the toast (the
 * 'notification' event the page shows) and the desktop notification both; the record is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotfolioApp } from '../../electron/app';
import { ManualClock } from '../../electron/core/clock';
import { BALANCE_NOTICE_WINDOW_MS } from '../../electron/live/notify';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from './helpers';

const EMAIL = 'holder@balances.test';
const FRAME_MS = 16;
let sandbox: Sandbox;
let live: LiveApp;
let app: SpotfolioApp;
const clock = new ManualClock(Date.now());
const desktop: { kind: string; title: string; body: string }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ world: 'empty', rateLimits: false });
  sandbox.admin.createAccount({ email: EMAIL });
  const key = sandbox.admin.createApiKey(EMAIL, { canTrade: true });
  sandbox.admin.credit(EMAIL, 'usdt', '100');
  live = await startLiveApp(sandbox, key, { notifier: { show: (n) => desktop.push(n) }, clock });
  app = live.app;
});

afterAll(async () => {
  await live?.close();
  await sandbox?.close();
});

const balanceEvents = () => live.eventsOf('notification').filter((n) => n.kind === 'balance');

/** Credits the account and waits until its balance change has gone out in a live batch. */
async function credit(asset: string, amount: string): Promise<void> {
  const batches = live.eventsOf('live.batch').length;
  sandbox.admin.credit(EMAIL, asset, amount);
  await eventually(`the ${asset} change in a live batch`, () => {
    clock.advance(FRAME_MS);
    return live.eventsOf('live.batch').length > batches ? true : undefined;
  });
}

describe('balance notifications', () => {
  it('come once per asset set at once, then the latest once per window, replacing', async () => {
    const startedAt = clock.now();
    for (let i = 0; i < 5; i++) await credit('usdt', '1');
    expect(clock.now() - startedAt).toBeLessThan(BALANCE_NOTICE_WINDOW_MS);
    // The first change at once; the four after it are held for the window.
    expect(balanceEvents()).toHaveLength(1);
    expect(balanceEvents()[0]!.body).toContain('USDT balance: 101');
    expect(balanceEvents()[0]!.group).toBe('balance:usdt');

    // Another set of assets is news of its own.
    await credit('btc', '0.5');
    expect(balanceEvents()).toHaveLength(2);
    expect(balanceEvents()[1]!.group).toBe('balance:btc');
    expect(balanceEvents()[1]!.body).toContain('BTC balance: 0.5');

    // At the end of the window: one more, with the latest balance, in place of the first.
    clock.advance(BALANCE_NOTICE_WINDOW_MS);
    await eventually('the held usdt notification', () =>
      balanceEvents().length === 3 ? true : undefined,
    );
    expect(balanceEvents()[2]!.group).toBe('balance:usdt');
    expect(balanceEvents()[2]!.body).toContain('USDT balance: 105');
    // Nothing more without a change.
    clock.advance(3 * BALANCE_NOTICE_WINDOW_MS);
    expect(balanceEvents()).toHaveLength(3);
    expect(desktop.filter((n) => n.kind === 'balance')).toHaveLength(3);
    const recorded = await app.handlers['activity.notifications']({ limit: 100 });
    expect(recorded.filter((n) => n.kind === 'balance')).toHaveLength(3);
  });

  it('are neither toasted nor shown on the desktop when switched off, and still recorded', async () => {
    await app.handlers['settings.update']({
      notifications: { fills: true, cancels: true, balances: false, transfers: true, alerts: true },
    });
    const shown = balanceEvents().length;
    const onDesktop = desktop.length;
    const before = (await app.handlers['activity.notifications']({ limit: 100 })).length;
    clock.advance(2 * BALANCE_NOTICE_WINDOW_MS);
    await credit('eth', '2');
    clock.advance(2 * BALANCE_NOTICE_WINDOW_MS);
    const recorded = await app.handlers['activity.notifications']({ limit: 100 });
    expect(recorded.length).toBe(before + 1);
    expect(recorded[0]).toMatchObject({ kind: 'balance' });
    expect(recorded[0]!.body).toContain('ETH balance: 2');
    expect(balanceEvents()).toHaveLength(shown);
    expect(desktop).toHaveLength(onDesktop);
  });
});
