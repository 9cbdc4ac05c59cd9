/**
 * Sub-to-sub transfers go through the main account as two transfers shown as one step. Faults are
 * injected on the SECOND transfer: the test waits until the first one has moved the funds into the
 * main account (its balance event reaches the app over the private stream; the client paces
 * sub-account transfers at one a second, so the second is not sent yet) and only then arms the fault.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import type { EventPayloads } from '../../shared/contract';
import type { TransferOutcome } from '../../shared/types';
import { eventually, tempDir, testSecretStore } from './helpers';

const TRANSFER_PATH = '/sapi/v1/sub_account/fund_transfer';

let sandbox: Sandbox;
let app: SpotfolioApp;
let dir: ReturnType<typeof tempDir>;
let parentEmail = '';
let subA = '';
let subB = '';
let asset = '';
const notifications: EventPayloads['notification'][] = [];
/** Armed by a test: runs once when the main account's free `asset` reaches `free` (live). */
let onParentCredit: { free: Decimal; run: () => void } | null = null;

function free(email: string): Decimal {
  const row = sandbox.admin.balances(email).find((b) => b.asset.toLowerCase() === asset);
  return new Decimal(row?.free ?? '0');
}

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 31 });
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const subs = sandbox.world.accounts.filter((a) => a.role === 'sub');
  parentEmail = parent.email;
  subA = subs[0]!.email;
  subB = subs[1]!.email;
  const held = sandbox.admin
    .balances(subA)
    .filter((b) => new Decimal(b.free).gte(1))
    .map((b) => b.asset.toLowerCase());
  asset = held.includes('usdt') ? 'usdt' : held[0]!;
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: testSecretStore().store,
    demo: 'off',
  });
  app.onEvent((event, payload) => {
    if (event === 'notification') notifications.push(payload as EventPayloads['notification']);
    if (event === 'live.batch' && onParentCredit) {
      const batch = payload as EventPayloads['live.batch'];
      const armed = onParentCredit;
      if (batch.balances.some((b) => b.asset.toLowerCase() === asset && armed.free.eq(b.free))) {
        onParentCredit = null;
        armed.run();
      }
    }
  });
  const key = parent.keys.find((k) => k.canTrade)!;
  await app.handlers['profiles.add']({
    name: 'Main',
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
  await eventually('the private stream to go live', async () =>
    (await app.handlers['app.status']({})).connection === 'live' ? true : undefined,
  );
  await app.handlers['subAccounts.refresh']({});
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

async function subToSub(amount: string): Promise<TransferOutcome> {
  return app.handlers['subAccounts.transfer']({ asset, amount, fromEmail: subA, toEmail: subB });
}

describe('sub-account transfers', () => {
  it('moves funds from one sub-account to another through the main account', async () => {
    const beforeA = free(subA);
    const beforeB = free(subB);
    const outcome = await subToSub('0.5');
    expect(outcome).toMatchObject({ state: 'completed', fundsAt: subB, asset, amount: '0.5' });
    expect(outcome.legs.map((l) => [l.fromEmail, l.toEmail, l.status])).toEqual([
      [subA, parentEmail, 'success'],
      [parentEmail, subB, 'success'],
    ]);
    expect(free(subA).toFixed()).toBe(beforeA.minus('0.5').toFixed());
    expect(free(subB).toFixed()).toBe(beforeB.plus('0.5').toFixed());
    expect(
      notifications.some((n) => n.kind === 'transfer' && n.title === 'Transfer completed'),
    ).toBe(true);
  });

  it('reports a failed second transfer as partial, with the funds in the main account', async () => {
    const beforeA = free(subA);
    const beforeB = free(subB);
    const beforeParent = free(parentEmail);
    onParentCredit = {
      free: beforeParent.plus('0.25'),
      run: () =>
        sandbox.admin.faults.inject(
          { method: 'POST', path: TRANSFER_PATH },
          { kind: 'error-before' },
        ),
    };
    const outcome = await subToSub('0.25');
    expect(onParentCredit).toBeNull();
    expect(outcome.state).toBe('partial');
    expect(outcome.fundsAt).toBe(parentEmail);
    expect(outcome.legs[0]).toMatchObject({
      fromEmail: subA,
      toEmail: parentEmail,
      status: 'success',
    });
    expect(outcome.legs[1]).toMatchObject({
      fromEmail: parentEmail,
      toEmail: subB,
      status: 'failed',
    });
    expect(free(subA).toFixed()).toBe(beforeA.minus('0.25').toFixed());
    expect(free(subB).toFixed()).toBe(beforeB.toFixed());
    expect(free(parentEmail).toFixed()).toBe(beforeParent.plus('0.25').toFixed());
    expect(notifications.some((n) => n.title === 'Transfer not finished')).toBe(true);

    // The user finishes the move from the main account.
    const finish = await app.handlers['subAccounts.transfer']({
      asset,
      amount: '0.25',
      fromEmail: parentEmail,
      toEmail: subB,
    });
    expect(finish.state).toBe('completed');
    expect(free(subB).toFixed()).toBe(beforeB.plus('0.25').toFixed());
  });

  it('reconciles a second transfer that succeeded behind a 5xx as completed', async () => {
    const beforeB = free(subB);
    onParentCredit = {
      free: free(parentEmail).plus('0.125'),
      run: () =>
        sandbox.admin.faults.inject(
          { method: 'POST', path: TRANSFER_PATH },
          { kind: 'error-after' },
        ),
    };
    const outcome = await subToSub('0.125');
    expect(outcome.state).toBe('completed');
    expect(outcome.legs.map((l) => l.status)).toEqual(['success', 'success']);
    expect(onParentCredit).toBeNull();
    expect(free(subB).toFixed()).toBe(beforeB.plus('0.125').toFixed());
  });

  it('refuses more than the free balance before sending anything', async () => {
    const before = free(subA);
    await expect(subToSub(before.plus(1).toFixed())).rejects.toMatchObject({
      kind: 'insufficient-balance',
      field: 'amount',
    });
    expect(free(subA).toFixed()).toBe(before.toFixed());
  });

  it('refuses an e-mail outside the family', async () => {
    await expect(
      app.handlers['subAccounts.transfer']({
        asset,
        amount: '1',
        fromEmail: 'stranger@example.com',
        toEmail: 'other@example.com',
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input' });
  });
});
