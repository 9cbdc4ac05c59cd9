/**
 * Identical reads in flight share one request: a second `get` of the same endpoint with the same
 * parameters while the first is still on its way gets the first one's answer (or failure) instead
 * of queueing a request of its own behind the exchange's pacing. Sixty screens asking for the
 * tickers in the same second then cost one request, not sixty at one a second.
 *
 * A write ends the sharing: a read that starts after a write was sent must see the exchange as it
 * is after it, so it never joins a read that started before (a new order would be missing from an
 * open-orders answer read just before it was placed).
 */
import type { Params } from './rest';

/** The same parameters give the same key whatever order they were written in. */
export function readKey(endpoint: string, params: Params): string {
  const fields = Object.keys(params)
    .filter((name) => params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${String(params[name])}`);
  return `${endpoint}?${fields.join('&')}`;
}

export class SingleFlight {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private shared = 0;

  /** Runs `read`, or joins the identical read already in flight under `key`. */
  run<T>(key: string, read: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) {
      this.shared++;
      return running as Promise<T>;
    }
    const started = read();
    this.inFlight.set(key, started);
    const done = () => {
      // Only if it is still the one under the key (a write may have cleared it meanwhile).
      if (this.inFlight.get(key) === started) this.inFlight.delete(key);
    };
    started.then(done, done);
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
