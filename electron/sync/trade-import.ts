/**
 * Import of every own trade: `myTrades` per symbol, walked upwards by `fromId`, 1000 to a page,
 * at the pace the client's limiter allows (2 calls a second). Each page is written with its
 * symbol's cursor in one transaction, so an import stopped anywhere (closed app, lost network)
 * resumes at the next page, with no gap and no duplicate.
 *
 * The first import walks every symbol the exchange lists (a trade's id is unique only within its
 * symbol, and the interface does not say which symbols an account traded). Once every symbol has
 * been walked to its end, later runs walk only the symbols the account has orders or trades on
 * (open orders, order history and live fills add to them), which is where new trades can appear.
 */
import { ExchangeError, networkCause, type ExchangeClient, type OwnTrade } from '../exchange';
import type { JsonValue } from '../store/types';
import type { SyncStorePort } from './port';

export const TRADE_PAGE_LIMIT = 1000;
/** Pages walked at once: the endpoint's limit (2 a second), so the limiter's budget is all used. */
const PARALLEL_SYMBOLS = 2;
/**
 * Why the import paused, in words for the page ("paused (…)"): the cause, not the request that
 * met it; the exchange's own words where it said any.
 */
function whyPaused(error: unknown): string {
  if (error instanceof ExchangeError) {
    const cause = networkCause(error);
    if (cause === 'refused') return "nothing answers at the exchange's address";
    if (cause !== undefined) return 'the exchange did not answer';
    if (error.kind === 'server') return 'the exchange had an internal error';
    if (error.exchangeMessage) return error.exchangeMessage;
  }
  return error instanceof Error ? error.message : String(error);
}

const CURSOR_PREFIX = 'trades.import.';
const IMPORT_STATE_KEY = 'trades.import';

/**
 * Where a linked sub-account's import keeps its cursors: every key of it starts with this, so an
 * unlink removes them all (and no other sub-account's: the e-mail ends at the slash).
 */
export function subAccountCursorPrefix(account: string): string {
  return `trades.import@${account.toLowerCase()}/`;
}

/** Where a symbol's walk resumes, kept in sync state. */
export interface TradeCursor {
  /** The next page asks for ids from this one on. */
  fromId: number;
  /** The walk has reached the newest trade at least once. */
  reachedEnd: boolean;
}

export interface TradeImportProgress {
  state: 'idle' | 'running' | 'done' | 'error';
  /** Symbols walked to their end in this run, of those it walks. */
  symbolsDone: number;
  symbolsTotal: number;
  /** Pages read and trades newly stored in this run. */
  pages: number;
  trades: number;
  /** Every listed symbol has been walked to its end at least once: the history is complete. */
  complete: boolean;
  startedAt: number | null;
  finishedAt: number | null;
  error?: string;
}

export interface TradeImportDeps {
  client: Pick<ExchangeClient, 'trading'>;
  port: SyncStorePort;
  profileId: string;
  /**
   * A linked sub-account's e-mail when `client` holds that sub-account's key: its trades are
   * stored as its own (never as the main account's), under cursors of its own.
   */
  account?: string;
  now: () => number;
  /** After each page that stored something (the screens re-read their trades). */
  onPage?: (progress: TradeImportProgress) => void;
  /** True once the run must end; checked before every page. */
  stopped?: () => boolean;
}

export class TradeImportStopped extends Error {
  constructor() {
    super('The trade import was stopped');
    this.name = 'TradeImportStopped';
  }
}

export function tradeCursorKey(symbol: string, account?: string): string {
  return (account === undefined ? CURSOR_PREFIX : subAccountCursorPrefix(account)) + symbol;
}

function importStateKey(account: string | undefined): string {
  return account === undefined ? IMPORT_STATE_KEY : subAccountCursorPrefix(account);
}

export function readTradeCursor(
  port: SyncStorePort,
  profileId: string,
  symbol: string,
  account?: string,
): TradeCursor | null {
  const cursor = port.state.get<JsonValue>(profileId, tradeCursorKey(symbol, account))?.cursor;
  return (cursor as unknown as TradeCursor | undefined) ?? null;
}

/** Whether a full import has ever finished for the profile (or its linked sub-account). */
export function tradeHistoryComplete(
  port: SyncStorePort,
  profileId: string,
  account?: string,
): boolean {
  const state = port.state.get<JsonValue>(profileId, importStateKey(account))?.cursor;
  return (state as { complete?: boolean } | undefined)?.complete === true;
}

/** Imports own trades; one instance per profile keeps the progress of its latest run. */
export class TradeImporter {
  private current: TradeImportProgress;
  private running: Promise<TradeImportProgress> | null = null;

  constructor(private readonly deps: TradeImportDeps) {
    this.current = {
      state: 'idle',
      symbolsDone: 0,
      symbolsTotal: 0,
      pages: 0,
      trades: 0,
      complete: tradeHistoryComplete(deps.port, deps.profileId, deps.account),
      startedAt: null,
      finishedAt: null,
    };
  }

  progress(): TradeImportProgress {
    return { ...this.current };
  }

  /**
   * Walks the symbols that may hold trades not stored yet (see the module comment) out of
   * `listed`, every symbol the exchange lists. A run already going is joined, not repeated.
   */
  run(listed: readonly string[]): Promise<TradeImportProgress> {
    this.running ??= this.walk(listed).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async walk(listed: readonly string[]): Promise<TradeImportProgress> {
    const { port, profileId, now, account } = this.deps;
    const complete = tradeHistoryComplete(port, profileId, account);
    const traded = new Set(
      account === undefined
        ? port.orderSymbols(profileId)
        : port.subAccountTradeSymbols(profileId, account),
    );
    const symbols = listed.filter((symbol) => {
      if (traded.has(symbol)) return true;
      const cursor = readTradeCursor(port, profileId, symbol, account);
      return !complete && !cursor?.reachedEnd;
    });
    // Symbols with trades first: what the screens show arrives before the empty walks.
    symbols.sort((a, b) => Number(traded.has(b)) - Number(traded.has(a)));
    this.current = {
      state: 'running',
      symbolsDone: 0,
      symbolsTotal: symbols.length,
      pages: 0,
      trades: 0,
      complete,
      startedAt: now(),
      finishedAt: null,
    };
    const queue = [...symbols];
    const worker = async () => {
      for (let symbol = queue.shift(); symbol !== undefined; symbol = queue.shift()) {
        await this.walkSymbol(symbol);
        this.current.symbolsDone++;
      }
    };
    try {
      await Promise.all(Array.from({ length: PARALLEL_SYMBOLS }, worker));
      const everyListed = listed.every(
        (symbol) => readTradeCursor(port, profileId, symbol, account)?.reachedEnd === true,
      );
      if (everyListed && !complete) {
        port.state.set(profileId, importStateKey(account), { complete: true }, now());
      }
      this.current = {
        ...this.current,
        state: 'done',
        complete: complete || everyListed,
        finishedAt: now(),
      };
    } catch (error) {
      queue.length = 0;
      this.current = {
        ...this.current,
        state: error instanceof TradeImportStopped ? 'idle' : 'error',
        finishedAt: now(),
        ...(error instanceof TradeImportStopped ? {} : { error: whyPaused(error) }),
      };
      throw error;
    }
    return this.progress();
  }

  private async walkSymbol(symbol: string): Promise<void> {
    const { client, port, profileId, now, account } = this.deps;
    let cursor = readTradeCursor(port, profileId, symbol, account) ?? {
      fromId: 0,
      reachedEnd: false,
    };
    for (;;) {
      if (this.deps.stopped?.()) throw new TradeImportStopped();
      const page = await client.trading.myTrades({
        symbol,
        fromId: cursor.fromId,
        limit: TRADE_PAGE_LIMIT,
      });
      this.current.pages++;
      const fresh = page.filter((trade) => trade.id >= cursor.fromId);
      const full = page.length >= TRADE_PAGE_LIMIT && fresh.length > 0;
      const next = nextCursor(cursor, fresh, full);
      const at = now();
      const stored = port.transaction(() => {
        let added = 0;
        if (account !== undefined) {
          added = port.insertSubAccountTrades(profileId, account, fresh);
        } else if (fresh.length > 0) {
          const before = port.trades(profileId, { symbol, limit: 1 }).total;
          port.upsertTrades(profileId, fresh, at);
          added = port.trades(profileId, { symbol, limit: 1 }).total - before;
        }
        port.state.set(
          profileId,
          tradeCursorKey(symbol, account),
          next as unknown as JsonValue,
          at,
        );
        return added;
      });
      cursor = next;
      this.current.trades += stored;
      if (stored > 0) this.deps.onPage?.(this.progress());
      if (!full) return;
    }
  }
}

/**
 * The cursor after a page. A full page resumes at its highest id, not after it: a self-trade
 * gives one id to two rows (one per order), and a page may end between them; the row read again
 * is already stored and changes nothing.
 */
function nextCursor(cursor: TradeCursor, fresh: readonly OwnTrade[], full: boolean): TradeCursor {
  if (fresh.length === 0) return { fromId: cursor.fromId, reachedEnd: true };
  let highest = cursor.fromId;
  for (const trade of fresh) if (trade.id > highest) highest = trade.id;
  if (!full) return { fromId: highest + 1, reachedEnd: true };
  // A full page of one id (impossible in practice) would never move on: step past it.
  return { fromId: highest > cursor.fromId ? highest : highest + 1, reachedEnd: false };
}
