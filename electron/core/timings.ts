/**
 * The app's pace: how long it waits before looking again for what it lacks. These are choices
 * about load on the exchange, not about correctness, so a run may set its own (the end-to-end
 * tests shorten them through browser mode's --timings file; see electron/serve/cli.ts). The
 * product reads them from createApp's options; nothing checks how the app was started.
 */
export interface Timings {
  /** How soon the candles an answer of the ledger lacks are looked for again. */
  priceRetryMs: number;
  /** How often a pending withdrawal's status is read while an alert waits on it. */
  withdrawalWatchMs: number;
}

export const DEFAULT_TIMINGS: Timings = {
  priceRetryMs: 30_000,
  withdrawalWatchMs: 30_000,
};

export const TIMING_NAMES = Object.keys(DEFAULT_TIMINGS) as (keyof Timings)[];

/** The defaults, with what `chosen` sets instead. */
export function timingsOf(chosen: Partial<Timings> = {}): Timings {
  return { ...DEFAULT_TIMINGS, ...chosen };
}
