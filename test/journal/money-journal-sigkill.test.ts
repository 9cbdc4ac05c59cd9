/**
 * A sub-to-sub transfer killed (SIGKILL) at each of its steps, against the sandbox over real HTTP:
 * a child process makes the transfer with a real record file (test/journal/fixtures/journal-child.ts),
 * the test kills it, starts the app again on the same files, and checks what the journal says and
 * what the exchange holds. A leg "sent but unanswered" is held in the sandbox by its latency fault
 * and reaches the exchange only after the process that sent it is dead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { ExchangeClient } from '../../electron/exchange/client';
import { launchSandbox, type Sandbox } from '../../electron/sandbox';
import type { RequestInterceptor } from '../../electron/sandbox/server';
import { FaultInjector } from '../../electron/sandbox/testing/faults';
import { DemoSecretStore } from '../../electron/secrets';
import { openStore } from '../../electron/store';
import type { JournalEntryView } from '../../shared/types';
import { eventually, tempDir } from '../api/helpers';
import { bundledScript } from '../support/child-script';

const TRANSFER_PATH = '/sapi/v1/sub_account/fund_transfer';
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../..');
const childScript = bundledScript(join(here, 'fixtures/journal-child.ts'));
/** Long enough to kill the sender while its leg waits; shorter than the 5 s receive window. */
const HOLD_MS = 2500;

/** The sandbox's latency fault, plus a signal when a transfer request reaches the exchange. */
class WatchedFaults implements RequestInterceptor {
  readonly faults = new FaultInjector();
  private arrivals: (() => void)[] = [];

  nextTransfer(): Promise<void> {
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  before(method: string, path: string) {
    if (method === 'POST' && path === TRANSFER_PATH) this.arrivals.shift()?.();
    return this.faults.before(method, path);
  }
}

let sandbox: Sandbox;
const watched = new WatchedFaults();
let exchange: ExchangeClient;
let key: { apiKey: string; secretKey: string };
let parentEmail = '';
let subA = '';
let subB = '';
let asset = '';
const dirs: ReturnType<typeof tempDir>[] = [];

beforeAll(async () => {
  ({ sandbox } = await launchSandbox({ seed: 47, simulation: false }, { interceptor: watched }));
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const subs = sandbox.world.accounts.filter((a) => a.role === 'sub');
  parentEmail = parent.email;
  subA = subs[0]!.email;
  subB = subs[1]!.email;
  key = parent.keys.find((k) => k.canTrade)!;
  exchange = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...key });
  const held = (await balances()).get(subA)!;
  asset = held.has('usdt') ? 'usdt' : [...held.keys()][0]!;
});

afterAll(async () => {
  await exchange?.close();
  await sandbox?.close();
  for (const dir of dirs) dir.remove();
});

/** Every account's free balance per asset, read from the exchange over HTTP. */
async function balances(): Promise<Map<string, Map<string, Decimal>>> {
  const result = new Map<string, Map<string, Decimal>>();
  for (const sub of await exchange.subAccounts.accounts()) {
    result.set(
      sub.email.toLowerCase(),
      new Map(sub.balance.map((b) => [b.symbol.toLowerCase(), new Decimal(b.balance)])),
    );
  }
  result.set(
    parentEmail,
    new Map(
      (await exchange.account.funds()).map((f) => [f.asset.toLowerCase(), new Decimal(f.free)]),
    ),
  );
  return result;
}

async function held(): Promise<{ a: Decimal; parent: Decimal; b: Decimal }> {
  const all = await balances();
  const of = (email: string) => all.get(email)?.get(asset) ?? new Decimal(0);
  return { a: of(subA), parent: of(parentEmail), b: of(subB) };
}

/** The records of this amount in the exchange's transfer history, as "from>to". */
async function recordsOf(amount: string): Promise<string[]> {
  const history = await exchange.subAccounts.transferHistory();
  return history
    .filter((r) => r.asset.toLowerCase() === asset && new Decimal(r.qty).eq(amount))
    .map((r) => `${r.from.toLowerCase()}>${r.to.toLowerCase()}`);
}

interface Run {
  dataDir: string;
  profileId: string;
  child: ChildProcess;
  lines: AsyncIterator<string>;
}

/** A record with the profile, and the child making the transfer on it. */
function startChild(amount: string, holdAt: string): Run {
  const dir = tempDir('spotfolio-journal-');
  dirs.push(dir);
  const profileId = 'journal-profile';
  const { store } = openStore({ dataDir: dir.path });
  store.profiles.create({
    id: profileId,
    name: 'Main',
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
    apiKeyMasked: 'masked',
    canTrade: true,
    canWithdraw: true,
    isDemo: false,
    createdAt: Date.now(),
  });
  store.close();
  // node itself runs the bundled script (no wrapper process between the test and the one to kill).
  const child = spawn(
    process.execPath,
    [
      childScript(),
      JSON.stringify({
        dataDir: dir.path,
        profileId,
        baseUrl: sandbox.baseUrl,
        ...key,
        asset,
        amount,
        fromEmail: subA,
        toEmail: subB,
        viaEmail: parentEmail,
        holdAt,
      }),
    ],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return { dataDir: dir.path, profileId, child, lines };
}

/** Reads the child's lines until one has `field`; returns its value. */
async function until(run: Run, field: string): Promise<unknown> {
  for (;;) {
    const next = await run.lines.next();
    if (next.done) throw new Error(`the child ended before printing ${field}`);
    const parsed = JSON.parse(next.value) as Record<string, unknown>;
    if ('failed' in parsed) throw new Error(`the child failed: ${String(parsed.failed)}`);
    if (field in parsed) return parsed[field];
  }
}

async function kill(run: Run): Promise<void> {
  const exited = new Promise((resolve) => run.child.once('exit', resolve));
  run.child.kill('SIGKILL');
  await exited;
}

/** The app started again on the child's files; the profile's key is given to it in memory. */
async function restart(run: Run): Promise<SpotfolioApp> {
  const secrets = new DemoSecretStore();
  await secrets.set(run.profileId, key);
  return createApp({
    dataDir: run.dataDir,
    mode: 'browser',
    secrets,
    demo: 'off',
    log: () => undefined,
  });
}

/** The entry once the start-up check has settled it. */
function settled(app: SpotfolioApp): Promise<JournalEntryView> {
  return eventually(
    'the journal check to settle the entry',
    async () => {
      const [entry] = await app.handlers['journal.list']({});
      return entry && entry.status !== 'in-progress' && entry.status !== 'unknown'
        ? entry
        : undefined;
    },
    30_000,
  );
}

describe('a sub-to-sub transfer killed at each step', () => {
  it('before leg 1: nothing moved, the user is told so and may send it', async () => {
    const amount = '0.11';
    const before = await held();
    const run = startChild(amount, 'written');
    expect(await until(run, 'held')).toBe('written');
    await kill(run);

    const app = await restart(run);
    try {
      const entry = await settled(app);
      expect(entry).toMatchObject({
        status: 'not-made',
        fundsAt: subA,
        actions: ['finish', 'dismiss'],
        // Never sent: the first leg was still pending when the process died.
        steps: [{ status: 'pending' }, { status: 'pending' }],
      });
      expect(entry.facts).toBe(
        `Nothing moved: the transfer of 0.11 ${asset.toUpperCase()} from ${subA} to ${subB} was not made, and the funds are still in ${subA}.`,
      );
      expect(await held()).toEqual(before);
      expect(await recordsOf(amount)).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('leg 1 sent, its answer held by the latency fault: found in the history after the restart', async () => {
    const amount = '0.12';
    const before = await held();
    watched.faults.inject(
      { method: 'POST', path: TRANSFER_PATH },
      { kind: 'latency', ms: HOLD_MS },
    );
    const run = startChild(amount, '');
    const arrived = watched.nextTransfer();
    expect(await until(run, 'point')).toBe('written');
    await arrived;
    await kill(run);
    // The exchange has not applied it yet: it does so while the sender is already dead.
    expect(await recordsOf(amount)).toEqual([]);

    const app = await restart(run);
    try {
      const entry = await settled(app);
      expect(entry).toMatchObject({
        status: 'stopped',
        fundsAt: parentEmail,
        actions: ['finish', 'resolve'],
        steps: [{ status: 'done' }, { status: 'pending' }],
      });
      expect(entry.facts).toBe(
        `0.12 ${asset.toUpperCase()} left ${subA} and is in your main account ${parentEmail}; it did not reach ${subB}.`,
      );
      const after = await held();
      expect(after.a.toFixed()).toBe(before.a.minus(amount).toFixed());
      expect(after.parent.toFixed()).toBe(before.parent.plus(amount).toFixed());
      expect(after.b.toFixed()).toBe(before.b.toFixed());
      expect(await recordsOf(amount)).toEqual([`${subA}>${parentEmail}`]);

      // The user finishes the move: only the second leg is sent.
      const finished = await app.handlers['journal.finish']({ id: entry.id });
      expect(finished).toMatchObject({ status: 'completed', fundsAt: subB });
      const done = await held();
      expect(done.b.toFixed()).toBe(before.b.plus(amount).toFixed());
      expect(done.parent.toFixed()).toBe(before.parent.toFixed());
      expect((await recordsOf(amount)).sort()).toEqual(
        [`${subA}>${parentEmail}`, `${parentEmail}>${subB}`].sort(),
      );
      expect(await app.handlers['journal.list']({})).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('after leg 1: the funds are in the main account; leaving them there resolves it', async () => {
    const amount = '0.13';
    const before = await held();
    const run = startChild(amount, 'answered:1');
    expect(await until(run, 'held')).toBe('answered:1');
    await kill(run);

    const app = await restart(run);
    try {
      const entry = await settled(app);
      expect(entry).toMatchObject({ status: 'stopped', fundsAt: parentEmail });
      expect(entry.facts).toContain(`left ${subA} and is in your main account ${parentEmail}`);
      const after = await held();
      expect(after.a.toFixed()).toBe(before.a.minus(amount).toFixed());
      expect(after.parent.toFixed()).toBe(before.parent.plus(amount).toFixed());
      expect(after.b.toFixed()).toBe(before.b.toFixed());

      const resolved = await app.handlers['journal.resolve']({ id: entry.id });
      expect(resolved).toMatchObject({ status: 'resolved', actions: [] });
      expect(await app.handlers['journal.list']({})).toEqual([]);
      expect(await recordsOf(amount)).toEqual([`${subA}>${parentEmail}`]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('during leg 2, its answer held: found in the history, the move completed', async () => {
    const amount = '0.14';
    const before = await held();
    const run = startChild(amount, 'answered:1');
    expect(await until(run, 'held')).toBe('answered:1');
    watched.faults.inject(
      { method: 'POST', path: TRANSFER_PATH },
      { kind: 'latency', ms: HOLD_MS },
    );
    const arrived = watched.nextTransfer();
    run.child.stdin!.write('go\n');
    await arrived;
    await kill(run);

    const app = await restart(run);
    try {
      const entry = await settled(app);
      expect(entry).toMatchObject({
        status: 'completed',
        fundsAt: subB,
        actions: ['dismiss'],
        steps: [{ status: 'done' }, { status: 'done' }],
      });
      expect(entry.facts).toBe(
        `0.14 ${asset.toUpperCase()} moved from ${subA} to ${subB} (through your main account ${parentEmail}).`,
      );
      const after = await held();
      expect(after.a.toFixed()).toBe(before.a.minus(amount).toFixed());
      expect(after.parent.toFixed()).toBe(before.parent.toFixed());
      expect(after.b.toFixed()).toBe(before.b.plus(amount).toFixed());
      expect((await recordsOf(amount)).sort()).toEqual(
        [`${subA}>${parentEmail}`, `${parentEmail}>${subB}`].sort(),
      );
      await app.handlers['journal.resolve']({ id: entry.id });
      expect(await app.handlers['journal.list']({})).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
