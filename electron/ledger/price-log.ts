/**
 * The prices a kept ledger's entries took (LedgerService): each asset, quote and time once, in the
 * order first taken, so that new prices can be checked against them, the finer candles fetched for
 * their times, and what a replay undoes cut off by position.
 *
 * A build notes one for every entry priced through another asset (100,000 trades with fees in BNB
 * note 20,000): so a note makes no key text and no text of the price, only its record; a record's
 * text is written when a check first reads it.
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

export class PriceLog {
  private readonly taken: PriceTaken[] = [];
  /** Where each is in `taken`: by asset, quote, then time (numbers and interned names, no key made). */
  private readonly at = new Map<string, Map<string, Map<number, number>>>();

  /** How many prices were taken. */
  get size(): number {
    return this.taken.length;
  }

  /** Every price taken, in the order first taken. */
  values(): IterableIterator<PriceTaken> {
    return this.taken.values();
  }

  note(asset: string, quote: string, time: number, answer: Answer): void {
    let quotes = this.at.get(asset);
    if (quotes === undefined) this.at.set(asset, (quotes = new Map()));
    let times = quotes.get(quote);
    if (times === undefined) quotes.set(quote, (times = new Map()));
    const index = times.get(time);
    if (index !== undefined) {
      this.taken[index]!.retake(answer);
      return;
    }
    times.set(time, this.taken.length);
    this.taken.push(new PriceTaken(asset, quote, time, answer));
  }

  /** Keeps the first `size` taken (what a replay goes back to). */
  truncate(size: number): void {
    for (let index = size; index < this.taken.length; index++) {
      const taken = this.taken[index]!;
      this.at.get(taken.asset)?.get(taken.quote)?.delete(taken.time);
    }
    if (size < this.taken.length) this.taken.length = size;
  }
}

/** A price as the log compares it: its decimal text, null when there is none. */
export function priceText(value: Answer): string | null {
  return value === null || value === undefined ? null : value.toString();
}
