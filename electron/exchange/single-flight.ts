/**
 * Identical reads in flight share one request: a second `get` of the same endpoint with the same
 * parameters while the first is still on its way gets the first one's answer (or failure) instead
 * of queueing a request of its own behind the exchange's pacing. Sixty screens asking for the
 * tickers in the same second then cost one request, not sixty at one a second.
 *
 * A write ends the sharing: a read that starts after a write was sent must see the exchange as it
 * is after it, so it never joins a read that started before (a new order would be missing from an
 * open-orders answer read just before it was placed).
 *
 * The all-market tickers are also kept for a few seconds after they were answered (`reusedFor`):
 * sync reads them every 10 s and says the prices changed, upon which the Markets screen asks for
 * the tickers; that ask (`takeKept`) takes the answer sync just got instead of reading the same
 * thing again at the endpoint's one-per-second limit. Sync itself never takes a kept answer: what
 * it stores as read now must have been read now (with the exchange gone, its refresh fails).
 */
import type { EndpointName } from './limits';
import type { Params } from './rest';

/** How long (ms) an answer of these endpoints is served again after it arrived. */
export const reusedFor: Partial<Record<EndpointName, number>> = { tickers: 5000 };

/** The same parameters give the same key whatever order they were written in. */
export function readKey(endpoint: string, params: Params): string {
  const fields = Object.keys(params)
    .filter((name) => params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${String(params[name])}`);
  return `${endpoint}?${fields.join('&')}`;
}

export interface ReadSharing {
  /** How long (ms) the answer is kept for callers that take kept answers. */
  keepMs?: number | undefined;
  /** This caller takes an answer kept from a read that already finished. */
  takeKept?: boolean | undefined;
}

export class SingleFlight {
  /** Reads in flight, and answers kept (`until` set once answered). */
  private readonly inFlight = new Map<string, { read: Promise<unknown>; until?: number }>();
  private shared = 0;

  constructor(private readonly now: () => number) {}

  /**
   * Runs `read`, or joins the identical read already in flight under `key` (or, for a caller
   * that takes kept answers, the answer kept under `key`).
   */
  run<T>(key: string, read: () => Promise<T>, sharing: ReadSharing = {}): Promise<T> {
    const running = this.inFlight.get(key);
    const joinable =
      running !== undefined &&
      (running.until === undefined || (sharing.takeKept === true && this.now() < running.until));
    if (joinable) {
      this.shared++;
      return running.read as Promise<T>;
    }
    const started = read();
    const entry: { read: Promise<unknown>; until?: number } = { read: started };
    this.inFlight.set(key, entry);
    // Only if it is still the one under the key (a write may have cleared it meanwhile).
    const drop = () => {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    };
    const keepMs = sharing.keepMs ?? 0;
    started.then(() => {
      if (keepMs > 0 && this.inFlight.get(key) === entry) entry.until = this.now() + keepMs;
      else drop();
    }, drop);
    return started;
  }

  /** A write was sent: reads from now on start afresh. */
  forget(): void {
    this.inFlight.clear();
  }

  /** How many reads joined one already in flight (for tests and benches). */
  get joined(): number {
    return this.shared;
  }
}
