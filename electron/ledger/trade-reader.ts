/**
 * A reader thread's body (a worker_threads Worker; TradeReaders in trade-readers.ts starts it):
 * reads one range of a profile's own trades on a connection of its own and takes its rows into a
 * TradeTable, as the build's own reading does (TradeRows), then hands the table's columns back,
 * transferred, not copied. A long history's read is split among such threads, so the SQLite read
 * and the rows' parsing, the largest part of a build, run beside each other and beside the main
 * thread. A connection is opened per range and closed after it: the cache file may be rebuilt
 * between two builds, and a connection kept open would go on reading the old one.
 */
import { parentPort } from 'node:worker_threads';
import { TradeRangeReader } from '../store/trade-range';
import type { TradeCursor } from '../store/ledger';
import { TradeRows, TradeTable, type TradeTableColumns } from './trade-table';

/** One range to read. */
export interface TradeReadTask {
  id: number;
  cacheFile: string;
  profileId: string;
  after: TradeCursor | null;
  to: TradeCursor;
  /** Each known symbol's assets, in assetKey form. */
  pairs: [string, { base: string; quote: string }][];
  /** About how many rows the range holds (the table's first room). */
  expected: number;
}

export type TradeReadResult =
  | { id: number; columns: TradeTableColumns; unknown: string[] }
  | { id: number; error: string };

function read(task: TradeReadTask): { columns: TradeTableColumns; unknown: string[] } {
  const rows = new TradeRows(new Map(task.pairs), task.expected);
  const reader = new TradeRangeReader(task.cacheFile);
  try {
    reader.each(task.profileId, task.after, task.to, rows);
  } finally {
    reader.close();
  }
  return { columns: rows.table.columns(), unknown: [...rows.unknown] };
}

parentPort?.on('message', (task: TradeReadTask) => {
  let result: TradeReadResult;
  let transfer: ArrayBuffer[] = [];
  try {
    const { columns, unknown } = read(task);
    result = { id: task.id, columns, unknown };
    transfer = TradeTable.transferables(columns);
  } catch (error) {
    result = { id: task.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(result, transfer);
});
