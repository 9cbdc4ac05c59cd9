/**
 * Money in flight survives a restored record, the probe's way: the whole app in a child process
 * moves 21 USDT from one sub-account to another through the main account against the sandbox
 * over real HTTP; the second leg is held at the exchange and the process SIGKILLed; the record is
 * damaged and the app started again. The record comes back from the backup taken before the move,
 * which knows nothing of it: the journal's own file brings the entry back, the start-up check
 * settles it with the exchange, and journal.list says where the 21 USDT are.
 */
import Decimal from 'decimal.js';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { ExchangeClient } from '../../electron/exchange/client';
import { launchSandbox, type Sandbox, type SandboxParts } from '../../electron/sandbox';
import { errors } from '../../electron/sandbox/errors';
import { parseFixed } from '../../electron/sandbox/fixed';
import type { RequestInterceptor } from '../../electron/sandbox/server';
import { DemoSecretStore } from '../../electron/secrets';
import type { JournalEntryView, StoreNotice } from '../../shared/types';
import { eventually, tempDir } from '../api/helpers';
import { appProcesses } from '../store/app-process';

const startAppProcess = appProcesses();

const TRANSFER_PATH = '/sapi/v1/sub_account/fund_transfer';

/**
 * Holds the second transfer request made once armed (the second leg of a sub-to-sub move) until
 * released, then fails it before the exchange applies it: the leg never happens.
 */
class HoldSecondLeg implements RequestInterceptor {
  armed = false;
  private seen = 0;
  private release: (() => void) | undefined;
  private arrived: () => void = () => undefined;
  readonly arrival = new Promise<void>((resolve) => {
    this.arrived = resolve;
  });

  before(method: string, path: string) {
    if (!this.armed || method !== 'POST' || path !== TRANSFER_PATH) return undefined;
    this.seen += 1;
    if (this.seen !== 2) return undefined;
    this.arrived();
    return new Promise<undefined>((_, reject) => {
      this.release = () => reject(errors.internal(500));
    });
  }

  fail(): void {
    this.release?.();
  }
}

let sandbox: Sandbox;
let parts: SandboxParts;
const hold = new HoldSecondLeg();
let exchange: ExchangeClient;
let key: { apiKey: string; secretKey: string };
let parentEmail = '';
let subA = '';
let subB = '';
const dirs: ReturnType<typeof tempDir>[] = [];

beforeAll(async () => {
  ({ sandbox, parts } = await launchSandbox(
    { seed: 71, simulation: false },
    { interceptor: hold },
  ));
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const subs = sandbox.world.accounts.filter((a) => a.role === 'sub');
  parentEmail = parent.email;
  subA = subs[0]!.email;
  subB = subs[1]!.email;
  key = parent.keys.find((k) => k.canTrade)!;
  exchange = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...key });
  const credit = (email: string, amount: string) => {
    parts.ledger.credit(parts.accounts.require(email).id, 'usdt', parseFixed(amount)!);
    parts.ledger.flush();
  };
  credit(parentEmail, '1');
  credit(subA, '21');
});

afterAll(async () => {
  await exchange?.close();
  await sandbox?.close();
  for (const dir of dirs) dir.remove();
});

/** USDT held by the main account and the two sub-accounts, read from the exchange over HTTP. */
async function usdt(): Promise<{ a: Decimal; parent: Decimal; b: Decimal }> {
  const subs = await exchange.subAccounts.accounts();
  const ofSub = (email: string) =>
    new Decimal(
      subs
        .find((s) => s.email.toLowerCase() === email)
        ?.balance.find((b) => b.symbol.toLowerCase() === 'usdt')?.balance ?? 0,
    );
  const funds = await exchange.account.funds();
  const parent = new Decimal(funds.find((f) => f.asset.toLowerCase() === 'usdt')?.free ?? 0);
  return { a: ofSub(subA), parent, b: ofSub(subB) };
}

describe('a restored record', () => {
  it('keeps the money journal: a sub-to-sub move stopped half-way is shown with where its funds are', async () => {
    const dir = tempDir('spotfolio-journal-restore-');
    dirs.push(dir);
    const child = await startAppProcess(dir.path);
    let profileId = '';
    let before: Awaited<ReturnType<typeof usdt>>;
    try {
      ({ id: profileId } = await child.call<{ id: string }>('profiles.add', {
        name: 'Main',
        ...key,
        baseUrl: sandbox.baseUrl,
        streamUrl: sandbox.streamUrl,
      }));
      await child.call('funds.refresh');
      await child.call('subAccounts.refresh');
      // A main-to-sub transfer first: the app learns the main account's e-mail from it.
      await child.call('subAccounts.transfer', {
        asset: 'usdt',
        amount: '1',
        fromEmail: parentEmail,
        toEmail: subB,
      });
      await child.call('subAccounts.refresh');
      before = await usdt();
      hold.armed = true;
      void child
        .call('subAccounts.transfer', {
          asset: 'usdt',
          amount: '21',
          fromEmail: subA,
          toEmail: subB,
        })
        .catch(() => undefined);
      await hold.arrival;
    } finally {
      await child.kill();
    }
    // The held leg fails at the exchange after its sender died: it never happens.
    hold.fail();
    writeFileSync(join(dir.path, 'record.sqlite'), randomBytes(64 * 1024));

    const secrets = new DemoSecretStore();
    await secrets.set(profileId, key);
    const app: SpotfolioApp = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets,
      demo: 'off',
      log: () => undefined,
    });
    try {
      const notices: StoreNotice[] = (await app.handlers['app.status']({})).storeNotices ?? [];
      const restored = notices.find((n) => n.kind === 'record-restored');
      // Both transfers were sent after the backup taken when the profile was added.
      expect(restored).toMatchObject({ journalKept: 2, journalWithoutProfile: 0 });

      const entry = await eventually<JournalEntryView>(
        'the start-up check to settle the move',
        async () => {
          const [found] = await app.handlers['journal.list']({});
          return found && found.status !== 'in-progress' && found.status !== 'unknown'
            ? found
            : undefined;
        },
        30_000,
      );
      expect(entry).toMatchObject({
        status: 'stopped',
        fundsAt: parentEmail,
        actions: ['finish', 'resolve'],
        steps: [{ status: 'done' }, { status: 'not-made' }],
      });
      expect(entry.facts).toBe(
        `21 USDT left ${subA} and is in your main account ${parentEmail}; it did not reach ${subB}.`,
      );
      const after = await usdt();
      expect(after.a.toFixed()).toBe(before.a.minus(21).toFixed());
      expect(after.parent.toFixed()).toBe(before.parent.plus(21).toFixed());
      expect(after.b.toFixed()).toBe(before.b.toFixed());
    } finally {
      await app.close();
    }
  }, 90_000);
});
