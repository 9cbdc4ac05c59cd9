/**
 * Fetches, in the background, the candles the ledger's prices of the time need, and the finer
 * ones a range of the value history lacks; the screens read again once they are kept (a
 * `data.changed`). What is kept is never fetched twice, so a look is cheap; the waits between
 * looks only keep a screen that asks often from asking the exchange as often.
 */
import type { KlineInterval } from '../../shared/market';
import type { Clock } from '../core/clock';
import { DEFAULT_TIMINGS } from '../core/timings';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { ExchangeClient } from '../exchange/client';
import type { Store } from '../store';
import { fetchCloses, type EntryPriceProgress } from './prices';
import type { LedgerChoice, LedgerService } from './service';

/** Candles are looked for again at most this often (what is kept is never fetched twice). */
export const PRICE_FETCH_EVERY_MS = 10 * 60_000;
/** While entries' prices are fetched, the screens hear of the progress at most this often. */
const PROGRESS_EVERY_MS = 1_000;

export interface CandleSchedulerDeps {
  store: Store;
  ledger: LedgerService;
  emit: Emit;
  log: Logger;
  clock: Clock;
  /** How soon candles an answer lacks are looked for again (timings.priceRetryMs). */
  retryMs?: number;
}

type Client = Pick<ExchangeClient, 'market'>;

export class CandleScheduler {
  private readonly lastLook = new Map<string, number>();
  /** Per profile, the newest entry time lacking its candle that a look has asked for. */
  private readonly askedUpTo = new Map<string, number>();
  private readonly fetching = new Set<string>();
  /** Entries' prices being fetched, per profile: how many markets' times are looked up. */
  private readonly entryProgress = new Map<string, EntryPriceProgress>();

  constructor(private readonly deps: CandleSchedulerDeps) {}

  private get retryMs(): number {
    return this.deps.retryMs ?? DEFAULT_TIMINGS.priceRetryMs;
  }

  /**
   * The candles the prices of the time need. `missing`: an answer lacks candles (a market first
   * traded since the last look, found by the trade import), so the wait is short. `newestLacking`:
   * the newest entry time whose candle is not kept (LedgerService.newestLacking); one no look has
   * asked for yet (a live fill since) is looked for at once: the candle that prices it is the last
   * one finished by its time, final as soon as the fill is there, and the wait is for a look that
   * found nothing to ask again. Whether a look starts now.
   */
  prices(
    profileId: string,
    client: Client,
    choice: LedgerChoice,
    missing = false,
    newestLacking: number | null = null,
  ): boolean {
    const asked = this.askedUpTo.get(profileId) ?? -Infinity;
    const fresh = newestLacking !== null && newestLacking > asked;
    const wait = fresh ? 0 : missing ? this.retryMs : PRICE_FETCH_EVERY_MS;
    const { clock, emit } = this.deps;
    let told = clock.now();
    const started = this.inBackground(
      profileId,
      wait,
      'ledger prices',
      ['portfolio', 'trades'],
      () =>
        this.deps.ledger
          .fetchPrices(profileId, client, choice, (progress) => {
            this.entryProgress.set(profileId, progress);
            if (clock.now() - told < PROGRESS_EVERY_MS) return;
            told = clock.now();
            emit('data.changed', { profileId, kinds: ['portfolio'] });
          })
          .finally(() => this.entryProgress.delete(profileId)),
    );
    if (started && fresh) this.askedUpTo.set(profileId, newestLacking);
    return started;
  }

  /** How far the fetch of entries' prices has come; null when none runs. */
  progress(profileId: string): EntryPriceProgress | null {
    return this.entryProgress.get(profileId) ?? null;
  }

  /** The finer candles a range of the value history lacks; the history is read again. */
  finer(
    profileId: string,
    client: Client,
    symbols: string[],
    from: number,
    interval: KlineInterval,
  ): void {
    const key = `${profileId}\u0000${interval}`;
    this.inBackground(key, this.retryMs, 'history candles', ['portfolio'], async () => {
      await fetchCloses(
        this.deps.store,
        client,
        profileId,
        symbols,
        from,
        this.deps.clock.now(),
        interval,
      );
    });
  }

  private inBackground(
    key: string,
    wait: number,
    what: string,
    kinds: ('portfolio' | 'trades')[],
    fetch: () => Promise<void>,
  ): boolean {
    const { clock, emit, log } = this.deps;
    const now = clock.now();
    if (this.fetching.has(key) || now - (this.lastLook.get(key) ?? 0) < wait) return false;
    this.lastLook.set(key, now);
    this.fetching.add(key);
    const profileId = key.split('\u0000')[0]!;
    void fetch()
      .then(() => emit('data.changed', { profileId, kinds }))
      .catch((error: unknown) => log.warn(`${what}: ${String(error)}`))
      .finally(() => this.fetching.delete(key));
    return true;
  }
}
