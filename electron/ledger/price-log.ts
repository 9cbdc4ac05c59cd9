/**
 * The prices a kept ledger's entries took (LedgerService): each asset, quote and time once, in the
 * order first taken, so that new prices can be checked against them, the finer candles fetched for
 * their times, and what a replay undoes cut off by position.
 *
 * A build notes one for every entry priced through another asset (100,000 trades with fees in BNB
 * note 20,000): so a note makes no key text and no text of the price, only its record; a record's
 * text is written when a check first reads it. The times of each asset and quote are kept
 * ascending in an array beside where each record is, so a note in time order (every note of a
 * build) is found new by one comparison with the pair's last time; a map keyed by the times boxed
 * each and cost 20,000 map insertions a build.
 */
import type { PriceAt } from './cost-basis';

type Answer = ReturnType<PriceAt>;

/** One price taken: what priceAt answered for `asset` in `quote` at `time`. */
export class PriceTaken {
  private written: string | null | undefined = undefined;

  constructor(
    readonly asset: string,
    readonly quote: string,
    readonly time: number,
    private answer: Answer,
  ) {}

  /** The price as decimal text, null when there was none. */
  get value(): string | null {
    if (this.written === undefined) this.written = priceText(this.answer);
    return this.written;
  }

  /** Taken again (a replay's entry at the same time): the newer answer holds. */
  retake(answer: Answer): void {
    this.answer = answer;
    this.written = undefined;
  }
}

/** The prices taken of one asset in one quote: their times ascending, and where each is in the log. */
interface PairTaken {
  readonly times: number[];
  readonly indexes: number[];
}

export class PriceLog {
  private readonly taken: PriceTaken[] = [];
  /** Each taken's pair (parallel to `taken`), for a cut to find it. */
  private readonly pairs: PairTaken[] = [];
  /** By asset, then quote (interned names, no key made). */
  private readonly at = new Map<string, Map<string, PairTaken>>();
  /** The pair noted last: a build notes one pair (a fee asset in the reporting asset) in turn. */
  private lastAsset = '';
  private lastQuote = '';
  private lastPair: PairTaken | null = null;

  /** How many prices were taken. */
  get size(): number {
    return this.taken.length;
  }

  /** Every price taken, in the order first taken. */
  values(): IterableIterator<PriceTaken> {
    return this.taken.values();
  }

  note(asset: string, quote: string, time: number, answer: Answer): void {
    const pair =
      this.lastPair !== null && asset === this.lastAsset && quote === this.lastQuote
        ? this.lastPair
        : this.pairOf(asset, quote);
    const times = pair.times;
    const count = times.length;
    // Entries come in time order: a time after the pair's last is new, with no search. Times are
    // numbers in an array (a map keyed by them boxed each one).
    let at = count;
    if (count > 0 && time <= times[count - 1]!) {
      at = firstAtOrAfter(times, time);
      if (times[at] === time) {
        this.taken[pair.indexes[at]!]!.retake(answer);
        return;
      }
    }
    if (at === count) {
      times.push(time);
      pair.indexes.push(this.taken.length);
    } else {
      times.splice(at, 0, time);
      pair.indexes.splice(at, 0, this.taken.length);
    }
    this.taken.push(new PriceTaken(asset, quote, time, answer));
    this.pairs.push(pair);
  }

  /** Keeps the first `size` taken (what a replay goes back to). */
  truncate(size: number): void {
    if (size >= this.taken.length) return;
    const cut = new Set(this.pairs.slice(size));
    for (const pair of cut) {
      let kept = 0;
      for (let index = 0; index < pair.times.length; index++) {
        if (pair.indexes[index]! >= size) continue;
        pair.times[kept] = pair.times[index]!;
        pair.indexes[kept] = pair.indexes[index]!;
        kept++;
      }
      pair.times.length = kept;
      pair.indexes.length = kept;
    }
    this.taken.length = size;
    this.pairs.length = size;
  }

  private pairOf(asset: string, quote: string): PairTaken {
    let quotes = this.at.get(asset);
    if (quotes === undefined) this.at.set(asset, (quotes = new Map()));
    let pair = quotes.get(quote);
    if (pair === undefined) quotes.set(quote, (pair = { times: [], indexes: [] }));
    this.lastAsset = asset;
    this.lastQuote = quote;
    this.lastPair = pair;
    return pair;
  }
}

/** The first index of ascending `times` whose time is at or after `time` (its length if none). */
function firstAtOrAfter(times: readonly number[], time: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle]! < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A price as the log compares it: its decimal text, null when there is none. */
export function priceText(value: Answer): string | null {
  return value === null || value === undefined ? null : value.toString();
}
