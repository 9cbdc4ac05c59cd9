/**
 * When an alert fires, as pure functions of what was seen: which side of its line a value lies
 * on, and whether a change of side is a crossing to tell. An alert fires on a crossing only (its
 * side changing to the one it waits for), so one crossing fires once however many prices follow
 * on the same side; a repeating alert waits out its cool-down, a one-shot one fires once at all.
 *
 * Comparisons and percentages are exact, in the project's one Decimal (never JavaScript numbers);
 * a percentage rounds only as its division does (divide(), shared/exact-decimal.ts).
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import type { LineDirection, MoveDirection } from '../../shared/alerts';
import type { AlertSide } from '../store';

/**
 * The side of a line a value lies on. Reaching the line counts as having crossed it: a price of
 * exactly 100 is "above" for an alert waiting for above 100, and "below" for one waiting for
 * below 100.
 */
export function lineSide(direction: LineDirection, value: string, line: string): AlertSide {
  const order = new Decimal(value).cmp(line);
  if (direction === 'above') return order >= 0 ? 'above' : 'below';
  return order <= 0 ? 'below' : 'above';
}

/** Whether a candle's range [low, high] reaches the side a line alert waits for. */
export function rangeReaches(
  direction: LineDirection,
  low: string,
  high: string,
  line: string,
): boolean {
  return direction === 'above' ? new Decimal(high).gte(line) : new Decimal(low).lte(line);
}

/** The change from `reference` to `price` in percent, exactly; null without a usable reference. */
export function changePercent(price: string, reference: string): Decimal | null {
  const from = new Decimal(reference);
  if (!from.gt(0)) return null;
  return divide(new Decimal(price).minus(from).times(100), from);
}

/** Whether a move of `change` percent is one the alert waits for ("beyond") or not ("within"). */
export function moveSide(direction: MoveDirection, change: Decimal, percent: string): AlertSide {
  const line = new Decimal(percent);
  const beyond =
    direction === 'up'
      ? change.gte(line)
      : direction === 'down'
        ? change.lte(line.neg())
        : change.abs().gte(line);
  return beyond ? 'beyond' : 'within';
}

/** The side each kind of alert waits for. */
export function targetSide(direction: LineDirection | MoveDirection): AlertSide {
  if (direction === 'above' || direction === 'below') return direction;
  return 'beyond';
}

/** What an alert's firing depends on besides the side it sees. */
export interface FiringState {
  target: AlertSide;
  lastSide: AlertSide | null;
  repeat: boolean;
  cooldownMs: number;
  lastFiredAt: number | null;
  /** A one-shot alert that has fired. */
  spent: boolean;
}

export type Verdict =
  /** Same side as before, or a first sight: nothing to tell. */
  | 'none'
  /** A crossing to tell now. */
  | 'fire'
  /** A crossing, but the alert may not fire now (spent, or in its cool-down): noted, not told. */
  | 'held';

/**
 * What seeing `side` at `now` means. A first sight (no side known yet) only sets the side: the
 * alert was created or edited on this side, so nothing crossed.
 */
export function verdict(state: FiringState, side: AlertSide, now: number): Verdict {
  if (state.lastSide === null || side === state.lastSide || side !== state.target) return 'none';
  if (state.spent) return 'held';
  if (state.repeat && state.lastFiredAt !== null && now - state.lastFiredAt < state.cooldownMs) {
    return 'held';
  }
  return 'fire';
}
