/**
 * Price and balance alerts: what the user can ask to be told about, as both sides of the bridge
 * see it. One definition here; the schemas of the bridge, the main process's evaluation and the
 * Alerts screen read it. Thresholds are decimal text (shared/decimal.ts), never numbers.
 */
import type { DecimalText } from './types';

/**
 * price: a market's last price above or below a line. price-move: a move of N % within a window.
 * balance: an asset's free balance above or below an amount. portfolio: the total value in a quote
 * asset above or below a line. withdrawal: a withdrawal (of one asset, or any) changing status.
 */
export const ALERT_KINDS = ['price', 'price-move', 'balance', 'portfolio', 'withdrawal'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Which side of a line an alert waits for. */
export const LINE_DIRECTIONS = ['above', 'below'] as const;
export type LineDirection = (typeof LINE_DIRECTIONS)[number];

/** Which way a price-move alert counts a move. */
export const MOVE_DIRECTIONS = ['up', 'down', 'either'] as const;
export type MoveDirection = (typeof MOVE_DIRECTIONS)[number];

/** The windows a price move is measured over. */
export const MOVE_WINDOWS = ['1h', '24h'] as const;
export type MoveWindow = (typeof MOVE_WINDOWS)[number];
export const MOVE_WINDOW_MS: Record<MoveWindow, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
};

/** A repeating alert waits at least this long between two firings (minutes, 1 minute to 7 days). */
export const MIN_COOLDOWN_MINUTES = 1;
export const MAX_COOLDOWN_MINUTES = 10_080;
export const DEFAULT_COOLDOWN_MINUTES = 60;

/** A price move is at most this many percent (a larger one could never be told apart). */
export const MAX_MOVE_PERCENT = '1000';

/** What an alert watches, one shape per kind. */
export type AlertTarget =
  | { kind: 'price'; symbol: string; direction: LineDirection; threshold: DecimalText }
  | {
      kind: 'price-move';
      symbol: string;
      direction: MoveDirection;
      /** Percent, e.g. "5" for 5 %. */
      threshold: DecimalText;
      window: MoveWindow;
    }
  | { kind: 'balance'; asset: string; direction: LineDirection; threshold: DecimalText }
  /** asset: the quote asset the value is counted in. */
  | { kind: 'portfolio'; asset: string; direction: LineDirection; threshold: DecimalText }
  /** asset: null for every asset. */
  | { kind: 'withdrawal'; asset: string | null };

/** How an alert fires: once (then it rests until resumed or edited), or again after a cool-down. */
export interface AlertTiming {
  repeat: boolean;
  cooldownMinutes: number;
}

/** active: waiting for its line; paused by the user; fired: a one-shot alert that has fired. */
export type AlertStatus = 'active' | 'paused' | 'fired';

export type AlertView = AlertTarget &
  AlertTiming & {
    id: number;
    status: AlertStatus;
    createdAt: number;
    updatedAt: number;
    lastFiredAt: number | null;
    firedCount: number;
    /** The value last seen (price, balance, value, move in %); null before the first. */
    lastValue: DecimalText | null;
    lastSeenAt: number | null;
  };
