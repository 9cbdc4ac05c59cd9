/**
 * The ledger: entries, holdings replay, reconciliation against balance snapshots, cost basis
 * (FIFO or average cost), figures and reports, which are pure (no I/O, no clock: rows and a price
 * function in); and around them what does I/O: its inputs read from the store (source.ts), the
 * prices of the time (prices.ts: the store's candles, fetched from the exchange), the service
 * that keeps built ledgers (service.ts) and the views and report files (views.ts).
 */
export * from './decimal';
export * from './entries';
export * from './reconcile';
export * from './annotations';
export * from './cost-basis';
export * from './results';
export * from './reports';
export * from './prices';
export * from './source';
export * from './service';
export { tradeReaders, TradeReaders, TRADE_READER_SOURCE } from './trade-readers';
export * from './candle-scheduler';
export * from './views';
