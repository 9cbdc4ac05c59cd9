/**
 * The ledger's accounting core: entries, holdings replay, reconciliation against balance
 * snapshots, cost basis (FIFO or average cost), figures and reports. Pure: no I/O, no clock;
 * callers feed it rows (from the store and the exchange) and a price function.
 */
export * from './decimal';
export * from './entries';
export * from './reconcile';
export * from './cost-basis';
export * from './results';
export * from './reports';
export * from './prices';
export * from './source';
export * from './service';
export * from './views';
