/**
 * Withdraw history: one contiguous covered range [coveredFrom, coveredTo] kept in sync_state.
 * - The backfill extends it downwards window by window (each < 90 days, offset paging inside),
 *   until the user's `since` date, or until EMPTY_WINDOWS_TO_STOP windows in a row beyond the
 *   oldest record found came back empty.
 * - The incremental step extends it upwards to now, re-reading a small overlap (and anything still
 *   pending) so status changes are picked up; upserts by id make re-reads harmless.
 * A window's rows and the new coverage are committed in ONE transaction, so a restart (or a kill)
 * resumes at the first window not committed: no gaps, no duplicates, no refetch of done windows.
 */
import type { ExchangeClient, WithdrawRecord } from '../exchange';
import { withdrawWindows } from '../exchange';
import type { BackfillProgress } from '../../shared/types';
import type { JsonValue } from '../store/types';
import type { PacingBudget, ReleaseSlot } from './pacing';
import type { SyncStorePort } from './port';

/** Window span: the exchange needs startTime..endTime under 90 days; both ends are inclusive. */
export const WINDOW_MS = 89 * 86_400_000;
export const PAGE_LIMIT = 1000;
/** Windows in a row with no record, past the oldest one found, after which history is complete. */
export const EMPTY_WINDOWS_TO_STOP = 2;
/** The incremental step re-reads this much before the newest covered time. */
export const INCREMENTAL_OVERLAP_MS = 10 * 60_000;
/** Never walks back before this (the exchange cannot hold older records). */
export const HISTORY_FLOOR_MS = Date.UTC(2017, 0, 1);

export const COVERAGE_KEY = 'withdrawals.coverage';

export interface Coverage {
  coveredFrom: number | null;
  coveredTo: number | null;
  backfill: {
    state: 'idle' | 'running' | 'done' | 'error';
    since: number | null;
    doneWindows: number;
    totalWindows: number;
    records: number;
    emptyStreak: number;
    oldestRecord: number | null;
    error: string | null;
  };
}

export function emptyCoverage(): Coverage {
  return {
    coveredFrom: null,
    coveredTo: null,
    backfill: {
      state: 'idle',
      since: null,
      doneWindows: 0,
      totalWindows: 0,
      records: 0,
      emptyStreak: 0,
      oldestRecord: null,
      error: null,
    },
  };
}

export function readCoverage(port: SyncStorePort, profileId: string): Coverage {
  const row = port.state.get<JsonValue>(profileId, COVERAGE_KEY);
  if (!row) return emptyCoverage();
  const saved = row.cursor as unknown as Partial<Coverage>;
  const fresh = emptyCoverage();
  return {
    coveredFrom: saved.coveredFrom ?? null,
    coveredTo: saved.coveredTo ?? null,
    backfill: { ...fresh.backfill, ...(saved.backfill ?? {}) },
  };
}

function writeCoverage(
  port: SyncStorePort,
  profileId: string,
  coverage: Coverage,
  at: number,
): void {
  port.state.set(profileId, COVERAGE_KEY, coverage as unknown as JsonValue, at);
}

export function progressOf(coverage: Coverage): BackfillProgress {
  const { backfill } = coverage;
  const progress: BackfillProgress = {
    state: backfill.state,
    doneWindows: backfill.doneWindows,
    totalWindows: Math.max(backfill.totalWindows, backfill.doneWindows),
    records: backfill.records,
    coveredFrom: coverage.coveredFrom,
  };
  if (backfill.error) progress.error = backfill.error;
  return progress;
}

/** Whether the backfill has reached its end (the user's date, the floor, or enough empty windows). */
function isComplete(coverage: Coverage): boolean {
  const { coveredFrom, backfill } = coverage;
  if (coveredFrom === null) return false;
  const lowerBound = Math.max(backfill.since ?? HISTORY_FLOOR_MS, HISTORY_FLOOR_MS);
  if (coveredFrom <= lowerBound) return true;
  return backfill.since === null && backfill.emptyStreak >= EMPTY_WINDOWS_TO_STOP;
}

/** Windows still to do, as far as can be told now. */
function remainingWindows(coverage: Coverage): number {
  if (isComplete(coverage)) return 0;
  const { coveredFrom, backfill } = coverage;
  if (backfill.since !== null && coveredFrom !== null) {
    return Math.ceil((coveredFrom - Math.max(backfill.since, HISTORY_FLOOR_MS)) / WINDOW_MS);
  }
  return Math.max(1, EMPTY_WINDOWS_TO_STOP - backfill.emptyStreak);
}

export interface WithdrawSyncContext {
  port: SyncStorePort;
  client: ExchangeClient;
  budget: PacingBudget;
  profileId: string;
  now: () => number;
  /** True once the engine is stopping: work ends at the next page, nothing half-written. */
  stopped: () => boolean;
  /** After each committed window; `backfill` is false for the incremental step. */
  onCommitted: (coverage: Coverage, newRows: number, backfill: boolean) => void;
  /**
   * The backfill's next request waits for the rate limit until `until` (ms); null once it goes.
   * A wait of most of a minute must be said, not look like a stalled fetch.
   */
  onWaiting?: (until: number | null) => void;
}

/** All records created in [windowStart, windowEnd], paging by offset (newest first). */
async function fetchWindow(
  ctx: WithdrawSyncContext,
  windowStart: number,
  windowEnd: number,
  backfill: boolean,
): Promise<WithdrawRecord[] | null> {
  const byId = new Map<string, WithdrawRecord>();
  for (let offset = 0; ; offset += PAGE_LIMIT) {
    if (ctx.stopped()) return null;
    const call = ctx.budget.queue('withdraws');
    const startsAt = call.startsAt();
    const waits = backfill && ctx.onWaiting !== undefined && startsAt > ctx.now();
    if (waits) ctx.onWaiting!(startsAt);
    let release: ReleaseSlot;
    try {
      release = await call.granted;
    } finally {
      if (waits) ctx.onWaiting!(null);
    }
    let page: WithdrawRecord[];
    try {
      if (ctx.stopped()) return null;
      page = await ctx.client.wallet.withdraws({
        startTime: windowStart,
        endTime: windowEnd,
        offset,
        limit: PAGE_LIMIT,
      });
    } finally {
      release();
    }
    // A record created while paging shifts the pages by one: it is then seen twice, never missed.
    for (const record of page) byId.set(record.id, record);
    if (page.length < PAGE_LIMIT) break;
  }
  return [...byId.values()];
}

function oldestCreated(records: WithdrawRecord[]): number | null {
  let oldest: number | null = null;
  for (const record of records) {
    const time = Date.parse(record.createdAt.replace(' ', 'T') + 'Z');
    if (Number.isFinite(time) && (oldest === null || time < oldest)) oldest = time;
  }
  return oldest;
}

/** Sets the user's lower bound (an earlier `since` reopens a finished backfill). */
export function prepareBackfill(ctx: WithdrawSyncContext, since: number | undefined): Coverage {
  return ctx.port.transaction(() => {
    const coverage = readCoverage(ctx.port, ctx.profileId);
    if (since !== undefined) coverage.backfill.since = since;
    coverage.backfill.state = isComplete(coverage) ? 'done' : 'running';
    coverage.backfill.error = null;
    coverage.backfill.totalWindows = Math.max(
      coverage.backfill.totalWindows,
      coverage.backfill.doneWindows + remainingWindows(coverage),
    );
    writeCoverage(ctx.port, ctx.profileId, coverage, ctx.now());
    return coverage;
  });
}

/**
 * Walks back window by window until complete or stopped. Returns the final coverage; throws the
 * exchange's error (the caller records it) with the coverage so far left committed.
 */
export async function runBackfill(ctx: WithdrawSyncContext): Promise<Coverage> {
  for (;;) {
    const coverage = readCoverage(ctx.port, ctx.profileId);
    if (isComplete(coverage)) return coverage;
    if (ctx.stopped()) return coverage;
    const lowerBound = Math.max(coverage.backfill.since ?? HISTORY_FLOOR_MS, HISTORY_FLOOR_MS);
    const windowEnd = coverage.coveredFrom === null ? ctx.now() : coverage.coveredFrom - 1;
    const windowStart = Math.max(lowerBound, windowEnd - WINDOW_MS + 1);
    const records = await fetchWindow(ctx, windowStart, windowEnd, true);
    if (records === null) return coverage;
    let inserted = 0;
    const committed = ctx.port.transaction(() => {
      inserted = ctx.port.upsertWithdrawals(ctx.profileId, records);
      // Re-read inside the transaction: the incremental step may have moved coveredTo meanwhile.
      const next = readCoverage(ctx.port, ctx.profileId);
      next.coveredFrom = windowStart;
      next.coveredTo = next.coveredTo ?? windowEnd;
      const b = next.backfill;
      b.doneWindows += 1;
      b.records += records.length;
      const oldest = oldestCreated(records);
      if (oldest !== null) b.oldestRecord = Math.min(b.oldestRecord ?? oldest, oldest);
      // Only windows past the oldest record found count as "empty beyond history".
      b.emptyStreak = records.length === 0 ? b.emptyStreak + 1 : 0;
      b.state = isComplete(next) ? 'done' : 'running';
      b.totalWindows = Math.max(b.totalWindows, b.doneWindows + remainingWindows(next));
      if (b.state === 'done') b.totalWindows = b.doneWindows;
      writeCoverage(ctx.port, ctx.profileId, next, ctx.now());
      return next;
    });
    ctx.onCommitted(committed, inserted, true);
  }
}

/**
 * Brings the covered range up to now. With nothing covered yet, covers the last window (the
 * backfill continues below it). Returns how many rows were new or changed.
 */
export async function runIncremental(ctx: WithdrawSyncContext): Promise<number> {
  const start = readCoverage(ctx.port, ctx.profileId);
  const now = ctx.now();
  let from: number;
  if (start.coveredTo === null) {
    from = now - WINDOW_MS + 1;
  } else {
    from = start.coveredTo - INCREMENTAL_OVERLAP_MS;
    // Pending withdrawals change status later: re-read from the oldest one (within one window).
    const pending = ctx.port.oldestPendingWithdrawal(ctx.profileId);
    if (pending !== null) from = Math.min(from, Math.max(pending, now - WINDOW_MS + 1));
    if (start.coveredFrom !== null) from = Math.max(from, start.coveredFrom);
  }
  let changed = 0;
  // Oldest window first, so the covered range grows without a gap after each commit.
  for (const { windowStart, windowEnd } of withdrawWindows(from, now, WINDOW_MS).reverse()) {
    const records = await fetchWindow(ctx, windowStart, windowEnd, false);
    if (records === null) return changed;
    let inserted = 0;
    const committed = ctx.port.transaction(() => {
      inserted = ctx.port.upsertWithdrawals(ctx.profileId, records);
      const next = readCoverage(ctx.port, ctx.profileId);
      next.coveredTo = Math.max(next.coveredTo ?? windowEnd, windowEnd);
      next.coveredFrom = Math.min(next.coveredFrom ?? windowStart, windowStart);
      writeCoverage(ctx.port, ctx.profileId, next, ctx.now());
      return next;
    });
    changed += inserted;
    ctx.onCommitted(committed, inserted, false);
  }
  return changed;
}

/** Records the backfill's failure in its state (kept for backfillStatus after a restart too). */
export function recordBackfillError(ctx: WithdrawSyncContext, message: string): Coverage {
  return ctx.port.transaction(() => {
    const coverage = readCoverage(ctx.port, ctx.profileId);
    coverage.backfill.state = 'error';
    coverage.backfill.error = message;
    writeCoverage(ctx.port, ctx.profileId, coverage, ctx.now());
    return coverage;
  });
}
