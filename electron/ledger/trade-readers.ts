/**
 * Reader threads for a long history's own trades (trade-reader.ts runs in each): the history is
 * cut into as many ranges of ledger order as there are threads, each read and parsed on its own
 * thread, and the tables come back as they are (their buffers transferred) to be taken in order.
 * The main thread meanwhile answers what else is due. A thread is started when first needed and
 * kept, not holding the process open while it has nothing to do.
 */
import { Worker } from 'node:worker_threads';
import type { Store } from '../store';
import type { TradeCursor } from '../store/ledger';
import { symbolPairs } from './source';
import type { TradeReadResult, TradeReadTask } from './trade-reader';
import { tradeBefore, TradeTable, type TableTrade } from './trade-table';

export interface TradeReadersOptions {
  /** Starts one reader thread (a Worker running trade-reader.ts, or its build). */
  start: () => Worker;
  /** Threads a history is split among. */
  threads?: number;
}

interface Thread {
  worker: Worker;
  waiting: Map<number, (result: TradeReadResult) => void>;
  failed: Error | null;
}

export class TradeReaders {
  private readonly threads: Thread[] = [];
  private nextId = 0;

  constructor(private readonly options: TradeReadersOptions) {}

  /** Threads a read is split among. */
  get count(): number {
    return Math.max(1, this.options.threads ?? 2);
  }

  /**
   * The profile's own trades up to `last` (the newest the caller's marks counted, `count` of
   * them), in ledger order, and the symbols left out for unknown assets.
   */
  async read(
    store: Store,
    profileId: string,
    last: TradeCursor,
    count: number,
  ): Promise<{ trades: TableTrade[]; unknown: string[] }> {
    const pairs = [...symbolPairs(store, profileId)];
    // Cut where each range holds about as many trades (a look along the ledger-order index).
    const cuts: (TradeCursor | null)[] = [null];
    for (let part = 1; part < this.count; part++) {
      const cut = store.ledger.tradeAt(profileId, Math.floor((count * part) / this.count) - 1);
      if (cut && before(cut, last) && (!cuts[cuts.length - 1] || before(cuts.at(-1)!, cut))) {
        cuts.push(cut);
      }
    }
    const parts = cuts.map((after, index) =>
      this.task(index, {
        cacheFile: store.paths.cache,
        profileId,
        after,
        to: cuts[index + 1] ?? last,
        pairs,
        expected: Math.ceil(count / cuts.length) + 1,
      }),
    );
    const trades: TableTrade[] = [];
    const unknown = new Set<string>();
    for (const result of await Promise.all(parts)) {
      if ('error' in result) throw new Error(`A trade reader failed: ${result.error}`);
      for (const trade of TradeTable.of(result.columns).trades()) trades.push(trade);
      for (const symbol of result.unknown) unknown.add(symbol);
    }
    return { trades, unknown: [...unknown] };
  }

  /** Stops every thread. */
  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private task(index: number, task: Omit<TradeReadTask, 'id'>): Promise<TradeReadResult> {
    const thread = this.thread(index);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (thread.failed) {
        reject(thread.failed);
        return;
      }
      thread.waiting.set(id, (result) => {
        if (thread.waiting.size === 0) thread.worker.unref();
        resolve(result);
      });
      thread.worker.ref();
      thread.worker.postMessage({ id, ...task } satisfies TradeReadTask);
    });
  }

  private thread(index: number): Thread {
    const thread = this.threads[index];
    if (thread && !thread.failed) return thread;
    const worker = this.options.start();
    worker.unref();
    const started: Thread = { worker, waiting: new Map(), failed: null };
    worker.on('message', (result: TradeReadResult) => {
      const done = started.waiting.get(result.id);
      started.waiting.delete(result.id);
      done?.(result);
    });
    const fail = (error: Error) => {
      started.failed = error;
      for (const [id, done] of started.waiting) done({ id, error: error.message });
      started.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The trade reader stopped (exit code ${code})`)));
    this.threads[index] = started;
    return started;
  }
}

/** Whether `a` comes before `b` in ledger order (b not at or before a). */
function before(a: TradeCursor, b: TradeCursor): boolean {
  return !tradeBefore(b.time, b.id, b.orderId, a);
}

/** The reader thread's script where the app runs from its TypeScript (trade-reader-source.mjs). */
export const TRADE_READER_SOURCE = new URL('./trade-reader-source.mjs', import.meta.url);

/** Reader threads each running `script` (TRADE_READER_SOURCE, or the built trade-reader.cjs). */
export function tradeReaders(script: string | URL, threads?: number): TradeReaders {
  return new TradeReaders({
    start: () => new Worker(script),
    ...(threads !== undefined ? { threads } : {}),
  });
}
