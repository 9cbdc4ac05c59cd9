/**
 * Background refresh: one job per data kind, each with a freshness target. A tick picks the jobs
 * that are due (what is on screen first), runs them through the client (which paces every call)
 * and sync's own budget for the scarce wallet endpoints, writes the store in one transaction per
 * step and emits 'data.changed'. A failing job keeps its error (with the ExchangeError kind) and is
 * retried with back-off; nothing here throws into the app, and offline the store keeps serving
 * the cached rows.
 */
import { inBackground, lineErrorLog } from '../core/background';
import {
  connectionRefused,
  ExchangeError,
  type EndpointName,
  type ExchangeClient,
} from '../exchange';
import type { Store } from '../store';
import type { EventName, EventPayloads } from '../../shared/contract';
import type {
  BackfillProgress,
  DataKind,
  DepositAddressRequest,
  DepositAddressView,
  RestStatus,
} from '../../shared/types';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import { assetKey } from '../../shared/market';
import { retry, SystemClock, type Clock, type TimerHandle } from '../core/clock';
import { backoffDelay, type Backoff } from '../../shared/backoff';
import { sameAsset } from '../core/market';
import { PacingBudget, SyncStoppedError, untilStopped, type QueuedCall } from './pacing';
import type { SyncStorePort } from './port';
import { storePort } from './store-port';
import { readOrderHistory, refreshOpenOrders, type AccountOrdersContext } from './orders';
import { TradeImporter, TradeImportStopped, type TradeImportProgress } from './trade-import';
import { takeValueSnapshot } from './valuation';
import {
  prepareBackfill,
  progressOf,
  readCoverage,
  recordBackfillError,
  runBackfill,
  runIncremental,
  type WithdrawSyncContext,
} from './withdrawals';

export type SyncKind =
  | 'funds'
  | 'prices'
  | 'account'
  | 'coins'
  | 'withdrawals'
  | 'subAccounts'
  | 'transfers'
  | 'openOrders'
  | 'orders'
  | 'trades'
  | 'symbols';

export interface SyncDeps {
  store: Store;
  /** Sync's port onto the store, built once in app.ts. Default: one onto `store`. */
  port?: SyncStorePort;
  client: ExchangeClient;
  profileId: string;
  emit: <E extends EventName>(e: E, p: EventPayloads[E]) => void;
  now?: () => number;
  log?: (line: string) => void;
  /** Timers and time for scheduling; tests pass a ManualClock. Default: the system clock. */
  clock?: Clock;
  /**
   * Sync's own budget for coins/withdraw history (5 a minute together) and deposit addresses
   * (1 a minute). Default true; false only against an exchange without limits (tests, benches),
   * together with the client's rateLimits: false.
   */
  pacing?: boolean;
  /** The user's quote asset for value snapshots (api/ reads the settings). Default 'usdt'. */
  quoteAsset?: () => string;
}

/** How fresh each kind should be kept, and the endpoint its step calls. */
export const JOBS: Record<SyncKind, { freshnessMs: number; endpoint: EndpointName }> = {
  prices: { freshnessMs: 10_000, endpoint: 'tickers' },
  funds: { freshnessMs: 15_000, endpoint: 'funds' },
  openOrders: { freshnessMs: 15_000, endpoint: 'openOrders' },
  subAccounts: { freshnessMs: 60_000, endpoint: 'subAccounts' },
  transfers: { freshnessMs: 60_000, endpoint: 'subTransferHistory' },
  trades: { freshnessMs: 60_000, endpoint: 'myTrades' },
  withdrawals: { freshnessMs: 120_000, endpoint: 'withdraws' },
  account: { freshnessMs: 5 * 60_000, endpoint: 'account' },
  orders: { freshnessMs: 5 * 60_000, endpoint: 'allOrders' },
  coins: { freshnessMs: 10 * 60_000, endpoint: 'coins' },
  symbols: { freshnessMs: 60 * 60_000, endpoint: 'exchangeInfo' },
};

export const SYNC_KINDS = Object.keys(JOBS) as SyncKind[];

/** Value snapshots are taken at least this often while running: the ledger's balance observations. */
export const SNAPSHOT_INTERVAL_MS = 5 * 60_000;
const TICK_MS = 1000;
/** Background jobs running at once; the client paces each endpoint on its own. */
const MAX_CONCURRENT_JOBS = 4;
/** A failing job or backfill waits 2 s, 4 s, 8 s … up to 5 minutes before its next try. */
const SYNC_BACKOFF: Backoff = { firstMs: 2000, maxMs: 5 * 60_000 };
/** A job of the focused screen is run first for this long after focus(). */
const FOCUS_MS = 60_000;

export interface JobError {
  kind: ExchangeError['kind'] | 'internal';
  message: string;
  at: number;
  code?: number;
}

export interface JobStatus {
  kind: SyncKind;
  lastSuccessAt: number | null;
  running: boolean;
  failures: number;
  nextDueAt: number;
  error: JobError | null;
}

interface JobState {
  lastSuccessAt: number | null;
  failures: number;
  nextDueAt: number;
  error: JobError | null;
  running: Promise<void> | null;
}

/**
 * Refused connections in a row, over at least this long, before the status says the address may
 * be wrong: one refusal is an exchange restarting, a run of them that lasts is not.
 */
const REFUSED_ATTEMPTS = 3;
const REFUSED_SPAN_MS = 10_000;

/** Failures that say the exchange did not answer at all (as opposed to answering no). */
const UNREACHABLE_KINDS: ReadonlySet<JobError['kind']> = new Set(['network', 'server']);

/** A deposit address the user asked for that has not come yet. */
interface AddressRequest {
  coin: string;
  network: string;
  promise: Promise<DepositAddressView>;
  /** Set once the request waits for its slot; null while the coin list is still being read. */
  call: QueuedCall | null;
  state: DepositAddressRequest['state'];
}

/** A deposit address request the cached coin list rules out (api/ maps it to invalid-input). */
function inputError(field: string, message: string): ExchangeError {
  return new ExchangeError('invalid-input', message, { field });
}

/** What a read made beside sync's jobs tells the session's REST status (SyncEngine's). */
export type RestOutcomes = Pick<SyncEngine, 'restAnswered' | 'restFailed'>;

export class SyncEngine {
  private readonly port: SyncStorePort;
  private readonly client: ExchangeClient;
  private readonly profileId: string;
  private readonly clock: Clock;
  private readonly now: () => number;
  private readonly budget: PacingBudget;
  private readonly jobs = new Map<SyncKind, JobState>();
  private readonly tradeImport: TradeImporter;
  private readonly addressRequests = new Map<string, AddressRequest>();
  private rest: RestStatus = { state: 'unknown', since: null };
  /** The run of refused connections since the last answer or other failure. */
  private refusals: { first: number; attempts: number } | null = null;
  private focused: { kinds: Set<SyncKind>; until: number } = { kinds: new Set(), until: 0 };
  private started = false;
  private stopped = false;
  private tickTimer: TimerHandle | undefined;
  private snapshotTimer: TimerHandle | undefined;
  private backfillRun: Promise<void> | null = null;
  /** Until when the backfill's next request waits for the rate limit; null when it is not waiting. */
  private backfillWaitUntil: number | null = null;
  private readonly work = new Set<Promise<unknown>>();
  /** Aborted by stop(): ends the backfill's wait between tries at once. */
  private readonly stopping = new AbortController();
  private signalStopped: (reason: SyncStoppedError) => void = () => undefined;

  constructor(private readonly deps: SyncDeps) {
    this.port = deps.port ?? storePort(deps.store);
    const stopped = new Promise<never>((_resolve, reject) => {
      this.signalStopped = reject;
    });
    stopped.catch(() => undefined);
    this.client = untilStopped(deps.client, stopped);
    this.profileId = deps.profileId;
    this.clock = deps.clock ?? new SystemClock();
    this.now = deps.now ?? (() => this.clock.now());
    this.budget = new PacingBudget(this.clock, deps.pacing ?? true);
    this.tradeImport = new TradeImporter({
      client: this.client,
      port: this.port,
      profileId: this.profileId,
      now: () => this.now(),
      stopped: () => this.stopped,
      onPage: () => this.emitChanged(['trades']),
    });
    for (const kind of SYNC_KINDS) {
      this.jobs.set(kind, {
        lastSuccessAt: null,
        failures: 0,
        nextDueAt: 0,
        error: null,
        running: null,
      });
    }
  }

  private readonly logError = lineErrorLog((line) => this.deps.log?.(line));

  // ---- Lifecycle --------------------------------------------------------------------------

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.scheduleTick(0);
    this.snapshotTimer = this.clock.setTimeout(() => this.snapshotLoop(), SNAPSHOT_INTERVAL_MS);
    // A backfill interrupted by a restart (or a kill) continues where its last commit left it.
    const coverage = readCoverage(this.port, this.profileId);
    if (coverage.backfill.state === 'running' || coverage.backfill.state === 'error') {
      inBackground(this.backfillWithdrawals(), 'withdraw backfill', this.logError);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.tickTimer);
    this.clock.clearTimeout(this.snapshotTimer);
    this.budget.stop();
    this.signalStopped(new SyncStoppedError());
    this.stopping.abort();
    // Running steps end at their next page; what they committed stays, nothing is half-written.
    await Promise.allSettled([...this.work]);
  }

  focus(kinds: SyncKind[]): void {
    this.focused = { kinds: new Set(kinds), until: this.now() + FOCUS_MS };
    for (const kind of kinds) {
      const job = this.jobs.get(kind);
      // Stale kinds of the new screen are due now (errors keep their back-off).
      if (job && !job.error && this.isStale(kind)) job.nextDueAt = 0;
    }
    if (this.started && !this.stopped) this.scheduleTick(0);
  }

  status(): JobStatus[] {
    return SYNC_KINDS.map((kind) => {
      const job = this.jobs.get(kind)!;
      return {
        kind,
        lastSuccessAt: job.lastSuccessAt,
        running: job.running !== null,
        failures: job.failures,
        nextDueAt: job.nextDueAt,
        error: job.error,
      };
    });
  }

  /** The own-trade import's latest run: symbols walked, pages, trades stored, complete or not. */
  tradeImportProgress(): TradeImportProgress {
    return this.tradeImport.progress();
  }

  jobStatus(kind: SyncKind): JobStatus {
    return this.status().find((s) => s.kind === kind)!;
  }

  // ---- Refresh ----------------------------------------------------------------------------

  private isStale(kind: SyncKind): boolean {
    const job = this.jobs.get(kind)!;
    return job.lastSuccessAt === null || this.now() - job.lastSuccessAt >= JOBS[kind].freshnessMs;
  }

  /**
   * Fetches the kind if stale (or forced), writes it in one transaction and emits data.changed.
   * Never rejects: a failure is kept in the job's status (see status()) and retried with back-off.
   */
  async refresh(kind: SyncKind, opts: { force?: boolean } = {}): Promise<void> {
    if (!Object.hasOwn(JOBS, kind)) throw inputError('kind', `Unknown sync kind ${String(kind)}`);
    const job = this.jobs.get(kind)!;
    if (job.running) {
      await job.running;
      if (!opts.force) return;
    }
    if (!opts.force && !this.isStale(kind)) return;
    await this.runJob(kind);
  }

  private runJob(kind: SyncKind): Promise<void> {
    const job = this.jobs.get(kind)!;
    if (job.running) return job.running;
    if (this.stopped) return Promise.resolve();
    const run = (async () => {
      try {
        const changed = await this.step(kind);
        job.lastSuccessAt = this.now();
        job.failures = 0;
        job.error = null;
        job.nextDueAt = job.lastSuccessAt + JOBS[kind].freshnessMs;
        this.restAnswered();
        if (changed.length > 0) this.emitChanged(changed);
      } catch (error) {
        if (error instanceof SyncStoppedError) return;
        this.recordFailure(kind, job, error);
        this.restFailed(error);
      } finally {
        job.running = null;
      }
    })();
    job.running = run;
    this.track(run);
    return run;
  }

  private recordFailure(kind: SyncKind, job: JobState, error: unknown): void {
    const at = this.now();
    job.failures += 1;
    const jobError: JobError =
      error instanceof ExchangeError
        ? { kind: error.kind, message: error.message, at }
        : { kind: 'internal', message: error instanceof Error ? error.message : String(error), at };
    if (error instanceof ExchangeError && error.code !== undefined) jobError.code = error.code;
    job.error = jobError;
    let backoff = backoffDelay(job.failures - 1, SYNC_BACKOFF);
    if (error instanceof ExchangeError && error.retryAfterMs !== undefined) {
      backoff = Math.max(backoff, error.retryAfterMs);
    }
    job.nextDueAt = at + backoff;
    this.deps.log?.(
      `sync ${kind} failed (${jobError.kind}), retry in ${backoff} ms: ${jobError.message}`,
    );
  }

  /**
   * Whether the exchange's REST interface answers, from the jobs' last outcomes. The private
   * stream has a state of its own (the live session's): either can be down while the other works.
   */
  restStatus(): RestStatus {
    return { ...this.rest };
  }

  /**
   * A REST call of the session answered: sync's own jobs, and the reads made beside them (the
   * market screens' tickers, candles and book, market/cache.ts), so the status is the same
   * whichever of them last reached the exchange.
   */
  restAnswered(): void {
    this.refusals = null;
    this.setRest('ok');
  }

  /**
   * A REST call of the session failed. Not reaching the exchange (a network failure, a 5xx) makes
   * it offline; an answer that says no (auth, permission, bad input, a rate limit) still came from
   * the exchange.
   */
  restFailed(error: unknown): void {
    if (error instanceof SyncStoppedError) return;
    this.countRefusal(error);
    if (error instanceof ExchangeError) {
      this.setRest(UNREACHABLE_KINDS.has(error.kind) ? 'offline' : 'ok', error.message);
    } else {
      this.setRest('ok', error instanceof Error ? error.message : String(error));
    }
  }

  private setRest(state: 'ok' | 'offline', message?: string): void {
    const refused =
      state === 'offline' &&
      this.refusals !== null &&
      this.refusals.attempts >= REFUSED_ATTEMPTS &&
      this.now() - this.refusals.first >= REFUSED_SPAN_MS
        ? { since: this.refusals.first, attempts: this.refusals.attempts }
        : undefined;
    if (
      this.rest.state === state &&
      (this.rest.refused !== undefined) === (refused !== undefined)
    ) {
      if (refused) this.rest.refused = refused;
      return;
    }
    this.rest = { state, since: this.rest.state === state ? this.rest.since : this.now() };
    if (state === 'offline' && message) this.rest.message = message;
    if (refused) this.rest.refused = refused;
    this.emitChanged(['status']);
  }

  /** A refused connection extends the run; any other failure (a timeout, an answer) ends it. */
  private countRefusal(error: unknown): void {
    if (!connectionRefused(error)) {
      this.refusals = null;
      return;
    }
    this.refusals = this.refusals
      ? { first: this.refusals.first, attempts: this.refusals.attempts + 1 }
      : { first: this.now(), attempts: 1 };
  }

  private track<T>(promise: Promise<T>): void {
    this.work.add(promise);
    void promise.finally(() => this.work.delete(promise)).catch(() => undefined);
  }

  private emitChanged(kinds: DataKind[]): void {
    this.deps.emit('data.changed', { profileId: this.profileId, kinds: [...new Set(kinds)] });
  }

  /** One sync step: fetch, then write the store in ONE transaction. Returns the kinds changed. */
  private async step(kind: SyncKind): Promise<DataKind[]> {
    const { port, client, profileId } = this;
    const at = () => this.now();
    switch (kind) {
      case 'funds': {
        const askedAt = at();
        const funds = await client.account.funds();
        port.transaction(() => port.replaceFunds(profileId, funds, at(), askedAt));
        await this.snapshotIfDue();
        return ['funds', 'portfolio'];
      }
      case 'prices': {
        const tickers = await client.market.tickers();
        port.transaction(() => port.replaceTickers(profileId, tickers, at()));
        return ['prices', 'portfolio'];
      }
      case 'account': {
        const info = await client.account.info();
        port.transaction(() => port.putAccount(profileId, info, at()));
        return ['profiles'];
      }
      case 'coins': {
        const release = await this.budget.take('coins');
        const coins = await client.wallet.coins().finally(release);
        port.transaction(() => port.replaceCoins(profileId, coins, at()));
        return ['deposits'];
      }
      case 'withdrawals': {
        const changed = await runIncremental(this.withdrawContext());
        return changed > 0 ? ['withdrawals'] : [];
      }
      case 'subAccounts': {
        // The list, the balances and the portfolio values come in one answer and are written together.
        const accounts = await client.subAccounts.accounts();
        port.transaction(() => port.replaceSubAccounts(profileId, accounts, at()));
        return ['subAccounts'];
      }
      case 'transfers': {
        const transfers = await client.subAccounts.transferHistory();
        port.transaction(() => port.upsertTransfers(profileId, transfers));
        return ['subAccounts'];
      }
      case 'openOrders': {
        const failed = await refreshOpenOrders(this.mainOrders());
        if (failed) {
          // What was read is in the store: the screens show it, the job retries the rest.
          this.emitChanged(['orders']);
          throw failed.failure;
        }
        return ['orders'];
      }
      case 'orders':
        return (await readOrderHistory(this.mainOrders())) > 0 ? ['orders'] : [];
      case 'trades': {
        // Trade ids are per symbol: every listed symbol is walked (see trade-import.ts).
        let listed = port.symbolAssets(profileId).map((s) => s.symbol);
        if (listed.length === 0) {
          const info = await client.general.exchangeInfo();
          port.transaction(() => port.replaceSymbols(profileId, info.symbols, at()));
          listed = info.symbols.map((s) => s.symbol);
        }
        const progress = await this.tradeImport.run(listed).catch((error: unknown) => {
          throw error instanceof TradeImportStopped ? new SyncStoppedError() : error;
        });
        return progress.trades > 0 ? ['trades'] : [];
      }
      case 'symbols': {
        const info = await client.general.exchangeInfo();
        port.transaction(() => port.replaceSymbols(profileId, info.symbols, at()));
        return ['prices'];
      }
    }
  }

  /** The main account's orders as sync/orders.ts reads them: the profile's key, its rows. */
  private mainOrders(): AccountOrdersContext {
    return {
      client: this.client,
      port: this.port,
      profileId: this.profileId,
      account: MAIN_ACCOUNT,
      now: () => this.now(),
      stopped: () => this.stopped,
      log: (line) => this.deps.log?.(line),
    };
  }

  // ---- Scheduling ---------------------------------------------------------------------------

  private scheduleTick(delayMs: number): void {
    if (this.stopped) return;
    this.clock.clearTimeout(this.tickTimer);
    this.tickTimer = this.clock.setTimeout(() => this.tick(), delayMs);
  }

  private tick(): void {
    if (this.stopped) return;
    const now = this.now();
    const focusActive = now < this.focused.until;
    const due = SYNC_KINDS.filter((kind) => {
      const job = this.jobs.get(kind)!;
      if (job.running || job.nextDueAt > now) return false;
      // Don't add to a queue that is already waiting (the client's or sync's own budget).
      const endpoint = JOBS[kind].endpoint;
      return this.client.queueWaitMs(endpoint) === 0 && this.budget.waitMs(endpoint) === 0;
    }).sort((a, b) => {
      const focusA = focusActive && this.focused.kinds.has(a) ? 0 : 1;
      const focusB = focusActive && this.focused.kinds.has(b) ? 0 : 1;
      return focusA - focusB || this.jobs.get(a)!.nextDueAt - this.jobs.get(b)!.nextDueAt;
    });
    let running = SYNC_KINDS.filter((kind) => this.jobs.get(kind)!.running !== null).length;
    for (const kind of due) {
      if (running >= MAX_CONCURRENT_JOBS) break;
      running += 1;
      inBackground(this.runJob(kind), `sync ${kind}`, this.logError);
    }
    this.scheduleTick(TICK_MS);
  }

  // ---- Value snapshots ------------------------------------------------------------------------

  private quoteAsset(): string {
    return assetKey(this.deps.quoteAsset?.() ?? 'usdt');
  }

  async valueSnapshotNow(): Promise<void> {
    const now = this.now();
    this.port.transaction(() =>
      takeValueSnapshot(this.port, this.profileId, this.quoteAsset(), now),
    );
    this.emitChanged(['portfolio']);
  }

  /** After a funds refresh: a snapshot when the last one is older than the interval. */
  private async snapshotIfDue(): Promise<void> {
    if (!this.started) return;
    const now = this.now();
    const recent = this.port.snapshots(
      this.profileId,
      this.quoteAsset(),
      now - SNAPSHOT_INTERVAL_MS,
      now,
    );
    if (recent.length === 0) await this.valueSnapshotNow();
  }

  private snapshotLoop(): void {
    if (this.stopped) return;
    void this.valueSnapshotNow().catch((error: unknown) => {
      this.deps.log?.(
        `value snapshot failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.snapshotTimer = this.clock.setTimeout(() => this.snapshotLoop(), SNAPSHOT_INTERVAL_MS);
  }

  // ---- Withdraw history backfill --------------------------------------------------------------

  private withdrawContext(): WithdrawSyncContext {
    return {
      port: this.port,
      client: this.client,
      budget: this.budget,
      profileId: this.profileId,
      now: this.now,
      stopped: () => this.stopped,
      onCommitted: (coverage, newRows, backfill) => {
        if (newRows > 0) this.emitChanged(['withdrawals']);
        if (backfill) this.emitProgress(progressOf(coverage));
      },
      onWaiting: (until) => {
        this.backfillWaitUntil = until;
        this.emitProgress(this.backfillStatus());
      },
    };
  }

  private emitProgress(progress: BackfillProgress): void {
    this.deps.emit('sync.progress', {
      profileId: this.profileId,
      job: 'withdrawBackfill',
      progress,
    });
  }

  /** Starts (or resumes) the backfill in the background and returns the progress right now. */
  async backfillWithdrawals(opts: { since?: number } = {}): Promise<BackfillProgress> {
    if (this.stopped) return this.backfillStatus();
    const ctx = this.withdrawContext();
    const prepared = prepareBackfill(ctx, opts.since);
    if (!this.backfillRun && prepared.backfill.state === 'running') {
      const run = this.runBackfillWithRetries(ctx).finally(() => {
        this.backfillRun = null;
      });
      this.backfillRun = run;
      this.track(run);
    }
    return this.backfillStatus();
  }

  /**
   * Runs the backfill to its end. A transient failure (network, server, rate limit) is shown as
   * the 'error' state and retried with back-off from the last committed window; a failure the
   * user must fix (auth, permission, bad input) ends the run until backfillWithdrawals() again.
   */
  private async runBackfillWithRetries(ctx: WithdrawSyncContext): Promise<void> {
    if (this.stopped) return;
    const attempt = async (failures: number): Promise<void> => {
      if (failures > 0) prepareBackfill(ctx, undefined);
      try {
        await runBackfill(ctx);
      } catch (error) {
        if (!(error instanceof SyncStoppedError) && !this.stopped) {
          const message = error instanceof Error ? error.message : String(error);
          this.deps.log?.(`withdraw backfill failed (attempt ${failures + 1}): ${message}`);
          this.emitProgress(progressOf(recordBackfillError(ctx, message)));
        }
        throw error;
      }
    };
    await retry(this.clock, attempt, {
      backoff: SYNC_BACKOFF,
      signal: this.stopping.signal,
      retryable: (error) =>
        !this.stopped &&
        error instanceof ExchangeError &&
        ['network', 'server', 'rate-limited', 'banned', 'unknown-outcome'].includes(error.kind),
      atLeastMs: (error) => (error instanceof ExchangeError ? error.retryAfterMs : undefined),
    }).catch(() => {
      // Recorded above: the backfill's 'error' state shows it until backfillWithdrawals() again.
    });
  }

  backfillStatus(): BackfillProgress {
    const progress = progressOf(readCoverage(this.port, this.profileId));
    if (progress.state === 'running' && this.backfillWaitUntil !== null) {
      progress.waitingUntil = this.backfillWaitUntil;
    }
    return progress;
  }

  /** Resolves when the running backfill (if any) has finished or stopped; for callers that wait. */
  async backfillSettled(): Promise<BackfillProgress> {
    if (this.backfillRun) await this.backfillRun;
    return this.backfillStatus();
  }

  // ---- Deposit addresses ----------------------------------------------------------------------

  /**
   * Cache first: an address is fetched once per coin and network (the exchange allows one such
   * call a minute, and the address is stable), then always served from the store, offline too.
   */
  async depositAddress(coin: string, network: string): Promise<DepositAddressView> {
    const coinKey = assetKey(coin.trim());
    const networkKey = network.trim();
    const cached = this.port.depositAddress(this.profileId, coinKey, networkKey);
    if (cached) return this.addressView(cached, true);
    const key = addressKey(coinKey, networkKey);
    let request = this.addressRequests.get(key);
    if (!request) {
      const entry: AddressRequest = {
        coin: coinKey,
        network: networkKey,
        call: null,
        state: 'queued',
        promise: Promise.resolve() as unknown as Promise<DepositAddressView>,
      };
      entry.promise = this.fetchDepositAddress(entry).finally(() => {
        if (this.addressRequests.get(key) === entry) this.addressRequests.delete(key);
        this.emitChanged(['deposits']);
      });
      this.addressRequests.set(key, entry);
      request = entry;
    }
    return request.promise;
  }

  /**
   * The deposit addresses asked for and not here yet: waiting for the one-a-minute slot (with
   * the time it comes) or on their way to the exchange.
   */
  pendingDepositAddresses(): DepositAddressRequest[] {
    const clientWait = this.client.queueWaitMs('depositAddress');
    return [...this.addressRequests.values()].map((request) => ({
      coin: request.coin,
      network: request.network,
      state: request.state,
      startsAt:
        request.state === 'fetching'
          ? null
          : request.call
            ? Math.max(request.call.startsAt(), this.now() + clientWait)
            : this.now(),
    }));
  }

  /**
   * Cancels a deposit address request still waiting for its slot: it never reaches the exchange,
   * and its caller gets a RequestCanceledError. False when there is none, or it has gone out.
   */
  cancelDepositAddress(coin: string, network: string): boolean {
    const key = addressKey(assetKey(coin.trim()), network.trim());
    const request = this.addressRequests.get(key);
    if (!request?.call || request.state !== 'queued') return false;
    if (!request.call.cancel()) return false;
    // Gone from what waits at once, so deposits.pending never lists a request already canceled.
    this.addressRequests.delete(key);
    this.emitChanged(['deposits']);
    return true;
  }

  private async fetchDepositAddress(request: AddressRequest): Promise<DepositAddressView> {
    const { coin, network } = request;
    let { coins } = this.port.coins(this.profileId);
    if (coins.length === 0) {
      await this.runJob('coins');
      coins = this.port.coins(this.profileId).coins;
      const failure = this.jobs.get('coins')!.error;
      if (coins.length === 0 && failure) {
        throw new ExchangeError(
          failure.kind === 'internal' ? 'server' : failure.kind,
          failure.message,
        );
      }
    }
    const info = coins.find((c) => sameAsset(c.coin, coin));
    if (!info) throw inputError('coin', `Unknown coin ${coin.toUpperCase()}`);
    const net = info.networkList.find((n) => n.network.toLowerCase() === network.toLowerCase());
    if (!net) {
      throw inputError('network', `Network ${network} is not available for ${coin.toUpperCase()}`);
    }
    if (!net.depositEnable) {
      throw inputError(
        'network',
        `Deposits are disabled on network ${net.network} of ${coin.toUpperCase()}`,
      );
    }
    // Another caller may have stored it while the coin list was loading.
    const cached = this.port.depositAddress(this.profileId, coin, net.network);
    if (cached) return this.addressView(cached, true);
    request.call = this.budget.queue('depositAddress');
    // The screen hears of the wait (and when it ends) at once.
    this.emitChanged(['deposits']);
    const release = await request.call.granted;
    request.state = 'fetching';
    const address = await this.client.wallet
      .depositAddress({ coin: info.coin, network: net.network })
      .finally(release);
    const at = this.now();
    this.port.transaction(() =>
      this.port.putDepositAddress(this.profileId, net.network, address, at),
    );
    this.emitChanged(['deposits']);
    const stored = this.port.depositAddress(this.profileId, coin, net.network);
    if (!stored) throw new Error(`The deposit address for ${coin} ${net.network} was not stored`);
    return this.addressView(stored, false);
  }

  private addressView(
    row: {
      coin: string;
      network: string;
      address: string;
      tag: string;
      url: string;
      fetchedAt: number;
    },
    fromCache: boolean,
  ): DepositAddressView {
    const info = this.port.coins(this.profileId).coins.find((c) => sameAsset(c.coin, row.coin));
    const net = info?.networkList.find((n) => n.network === row.network);
    return {
      coin: row.coin,
      network: row.network,
      address: row.address,
      tag: row.tag,
      url: row.url,
      memoRequired: net ? Boolean(net.memoRequired) : row.tag !== '',
      fetchedAt: row.fetchedAt,
      fromCache,
    };
  }
}

function addressKey(coin: string, network: string): string {
  return `${coin}\u0000${network.toLowerCase()}`;
}
