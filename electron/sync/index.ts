/** Background refresh and backfill, and valuation. */
export {
  SyncEngine,
  JOBS,
  SYNC_KINDS,
  SNAPSHOT_INTERVAL_MS,
  type SyncKind,
  type SyncDeps,
  type JobStatus,
  type JobError,
} from './engine';
export {
  portfolioSummary,
  fundsView,
  priceIn,
  valueHoldings,
  HISTORY_RANGES,
  FUNDS_FRESHNESS_MS,
} from './valuation';
