/**
 * The alerts table of the record (the alerts repository, store.alerts): what the user asked to be told about, and what the app last
 * saw of it (the side of the line, the value, when it last fired). The record is never
 * discarded, so alerts and their state survive restarts; evaluation writes only when a side
 * changes or an alert fires, never per price.
 */
import type Database from 'better-sqlite3';
import type { AlertTarget, AlertTiming } from '../../shared/alerts';

/** The side of its line an alert last saw: above/below a line, beyond/within a move. */
export type AlertSide = 'above' | 'below' | 'beyond' | 'within';

/** Per-kind state kept between runs (JSON in the state column). */
export interface AlertState {
  /** A one-shot alert has fired: it rests until it is resumed or edited. */
  spent?: boolean;
  /** withdrawal: the status code last seen of each withdrawal of the last days, by id. */
  withdrawals?: Record<string, number>;
}

export type AlertRecord = AlertTarget &
  AlertTiming & {
    id: number;
    profileId: string;
    paused: boolean;
    lastSide: AlertSide | null;
    lastValue: string | null;
    lastSeenAt: number | null;
    lastFiredAt: number | null;
    firedCount: number;
    state: AlertState;
    createdAt: number;
    updatedAt: number;
  };

interface AlertDbRow {
  id: number;
  profile_id: string;
  kind: string;
  symbol: string | null;
  asset: string | null;
  direction: string | null;
  threshold: string | null;
  window_ms: number | null;
  repeat: number;
  cooldown_ms: number;
  paused: number;
  last_side: string | null;
  last_value: string | null;
  last_seen_at: number | null;
  last_fired_at: number | null;
  fired_count: number;
  state: string | null;
  created_at: number;
  updated_at: number;
}

const MINUTE_MS = 60_000;
const WINDOW_BY_MS = new Map<number, '1h' | '24h'>([
  [3_600_000, '1h'],
  [86_400_000, '24h'],
]);
const MS_BY_WINDOW = { '1h': 3_600_000, '24h': 86_400_000 } as const;

function targetOf(row: AlertDbRow): AlertTarget {
  const symbol = row.symbol ?? '';
  const asset = row.asset ?? '';
  const threshold = row.threshold ?? '0';
  switch (row.kind) {
    case 'price':
      return { kind: 'price', symbol, direction: lineDirection(row.direction), threshold };
    case 'price-move':
      return {
        kind: 'price-move',
        symbol,
        direction: row.direction === 'up' || row.direction === 'down' ? row.direction : 'either',
        threshold,
        window: WINDOW_BY_MS.get(row.window_ms ?? 0) ?? '24h',
      };
    case 'balance':
      return { kind: 'balance', asset, direction: lineDirection(row.direction), threshold };
    case 'portfolio':
      return { kind: 'portfolio', asset, direction: lineDirection(row.direction), threshold };
    default:
      return { kind: 'withdrawal', asset: row.asset };
  }
}

function lineDirection(value: string | null): 'above' | 'below' {
  return value === 'below' ? 'below' : 'above';
}

function sideOf(value: string | null): AlertSide | null {
  return value === 'above' || value === 'below' || value === 'beyond' || value === 'within'
    ? value
    : null;
}

function parseState(text: string | null): AlertState {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as AlertState) : {};
  } catch {
    return {};
  }
}

function toRecord(row: AlertDbRow): AlertRecord {
  return {
    ...targetOf(row),
    id: row.id,
    profileId: row.profile_id,
    repeat: row.repeat === 1,
    cooldownMinutes: Math.round(row.cooldown_ms / MINUTE_MS),
    paused: row.paused === 1,
    lastSide: sideOf(row.last_side),
    lastValue: row.last_value,
    lastSeenAt: row.last_seen_at,
    lastFiredAt: row.last_fired_at,
    firedCount: row.fired_count,
    state: parseState(row.state),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a target fills (the rest NULL). */
function targetColumns(target: AlertTarget) {
  switch (target.kind) {
    case 'price':
      return {
        symbol: target.symbol,
        asset: null,
        direction: target.direction,
        threshold: target.threshold,
        window_ms: null,
      };
    case 'price-move':
      return {
        symbol: target.symbol,
        asset: null,
        direction: target.direction,
        threshold: target.threshold,
        window_ms: MS_BY_WINDOW[target.window],
      };
    case 'balance':
    case 'portfolio':
      return {
        symbol: null,
        asset: target.asset,
        direction: target.direction,
        threshold: target.threshold,
        window_ms: null,
      };
    case 'withdrawal':
      return {
        symbol: null,
        asset: target.asset,
        direction: null,
        threshold: null,
        window_ms: null,
      };
  }
}

/** What evaluation records about an alert. */
export interface AlertObservation {
  lastSide: AlertSide | null;
  lastValue: string | null;
  lastSeenAt: number | null;
  state: AlertState;
}

export class AlertsRepository {
  private readonly insertStatement;
  private readonly updateStatement;
  private readonly listStatement;
  private readonly getStatement;
  private readonly countStatement;
  private readonly sameLineStatement;
  private readonly deleteStatement;
  private readonly pausedStatement;
  private readonly observeStatement;
  private readonly firedStatement;

  constructor(private readonly db: Database.Database) {
    this.insertStatement = db.prepare<Record<string, unknown>>(
      `INSERT INTO alerts (profile_id, kind, symbol, asset, direction, threshold, window_ms, repeat,
         cooldown_ms, paused, last_side, last_value, last_seen_at, state, created_at, updated_at)
       VALUES (@profile_id, @kind, @symbol, @asset, @direction, @threshold, @window_ms, @repeat,
         @cooldown_ms, 0, @last_side, @last_value, @last_seen_at, NULL, @now, @now)`,
    );
    // An edit starts the alert afresh: its side is seen again and a spent one-shot is re-armed.
    this.updateStatement = db.prepare<Record<string, unknown>>(
      `UPDATE alerts SET kind = @kind, symbol = @symbol, asset = @asset, direction = @direction,
         threshold = @threshold, window_ms = @window_ms, repeat = @repeat,
         cooldown_ms = @cooldown_ms, last_side = @last_side, last_value = @last_value,
         last_seen_at = @last_seen_at, state = NULL, updated_at = @now
       WHERE profile_id = @profile_id AND id = @id`,
    );
    this.listStatement = db.prepare<[string], AlertDbRow>(
      'SELECT * FROM alerts WHERE profile_id = ? ORDER BY created_at, id',
    );
    this.getStatement = db.prepare<[string, number], AlertDbRow>(
      'SELECT * FROM alerts WHERE profile_id = ? AND id = ?',
    );
    this.countStatement = db
      .prepare<[string], number>('SELECT COUNT(*) FROM alerts WHERE profile_id = ?')
      .pluck();
    this.sameLineStatement = db.prepare<
      [string, string, string | null, string | null, number | null],
      AlertDbRow
    >(
      `SELECT * FROM alerts WHERE profile_id = ? AND kind = ? AND direction IS ?
         AND threshold IS ? AND window_ms IS ? ORDER BY created_at, id`,
    );
    this.deleteStatement = db.prepare<[string, number]>(
      'DELETE FROM alerts WHERE profile_id = ? AND id = ?',
    );
    this.pausedStatement = db.prepare<[number, string | null, number, string, number]>(
      'UPDATE alerts SET paused = ?, state = ?, updated_at = ? WHERE profile_id = ? AND id = ?',
    );
    this.observeStatement = db.prepare<
      [string | null, string | null, number | null, string | null, number]
    >(
      `UPDATE alerts SET last_side = ?, last_value = ?, last_seen_at = ?, state = ?
       WHERE id = ?`,
    );
    this.firedStatement = db.prepare<
      [number, string | null, string | null, number | null, string | null, number]
    >(
      `UPDATE alerts SET last_fired_at = ?, fired_count = fired_count + 1, last_side = ?,
         last_value = ?, last_seen_at = ?, state = ? WHERE id = ?`,
    );
  }

  list(profileId: string): AlertRecord[] {
    return this.listStatement.all(profileId).map(toRecord);
  }

  count(profileId: string): number {
    return this.countStatement.get(profileId)!;
  }

  /**
   * The alerts of the same kind with the same direction, line and window as `target`: the few a
   * duplicate can be among, without reading every alert (the market or asset is compared by the
   * caller, which knows how names are matched).
   */
  withSameLine(profileId: string, target: AlertTarget): AlertRecord[] {
    const columns = targetColumns(target);
    return this.sameLineStatement
      .all(profileId, target.kind, columns.direction, columns.threshold, columns.window_ms)
      .map(toRecord);
  }

  get(profileId: string, id: number): AlertRecord | undefined {
    const row = this.getStatement.get(profileId, id);
    return row ? toRecord(row) : undefined;
  }

  create(
    profileId: string,
    alert: AlertTarget & AlertTiming,
    seen: Pick<AlertObservation, 'lastSide' | 'lastValue' | 'lastSeenAt'>,
    now: number,
  ): AlertRecord {
    const result = this.insertStatement.run({
      profile_id: profileId,
      kind: alert.kind,
      ...targetColumns(alert),
      repeat: alert.repeat ? 1 : 0,
      cooldown_ms: alert.cooldownMinutes * MINUTE_MS,
      last_side: seen.lastSide,
      last_value: seen.lastValue,
      last_seen_at: seen.lastSeenAt,
      now,
    });
    return this.get(profileId, Number(result.lastInsertRowid))!;
  }

  update(
    profileId: string,
    id: number,
    alert: AlertTarget & AlertTiming,
    seen: Pick<AlertObservation, 'lastSide' | 'lastValue' | 'lastSeenAt'>,
    now: number,
  ): AlertRecord | undefined {
    const result = this.updateStatement.run({
      profile_id: profileId,
      id,
      kind: alert.kind,
      ...targetColumns(alert),
      repeat: alert.repeat ? 1 : 0,
      cooldown_ms: alert.cooldownMinutes * MINUTE_MS,
      last_side: seen.lastSide,
      last_value: seen.lastValue,
      last_seen_at: seen.lastSeenAt,
      now,
    });
    return result.changes === 0 ? undefined : this.get(profileId, id);
  }

  /** Pauses or resumes; resuming re-arms a spent one-shot alert. */
  setPaused(profileId: string, id: number, paused: boolean, now: number): AlertRecord | undefined {
    const existing = this.get(profileId, id);
    if (!existing) return undefined;
    const state: AlertState = { ...existing.state };
    if (!paused) delete state.spent;
    this.pausedStatement.run(paused ? 1 : 0, stateText(state), now, profileId, id);
    return this.get(profileId, id);
  }

  delete(profileId: string, id: number): boolean {
    return this.deleteStatement.run(profileId, id).changes > 0;
  }

  /** Records the side and value seen (a side change, or the state of a withdrawal alert). */
  observe(id: number, observation: AlertObservation): void {
    this.observeStatement.run(
      observation.lastSide,
      observation.lastValue,
      observation.lastSeenAt,
      stateText(observation.state),
      id,
    );
  }

  /** Records a firing together with what was seen at it. */
  fired(id: number, at: number, observation: AlertObservation): void {
    this.firedStatement.run(
      at,
      observation.lastSide,
      observation.lastValue,
      observation.lastSeenAt,
      stateText(observation.state),
      id,
    );
  }

  /** Runs fn in one transaction (a savepoint when nested). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}

function stateText(state: AlertState): string | null {
  return Object.keys(state).length === 0 ? null : JSON.stringify(state);
}
