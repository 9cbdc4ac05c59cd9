/**
 * Making, editing, pausing and removing the active profile's alerts. The bridge's schemas have
 * checked the shape (a positive decimal line, a known kind); here the market or asset is checked
 * against what the exchange lists, a duplicate is refused, and a new or edited alert starts from
 * the side of its line the app knows now, so a crossing right after it is made is not lost. The
 * running session's evaluation (session.ts) is told of every change. One AlertEditor, built in
 * app.ts, serves whichever profile is active.
 */
import type { AlertTarget, AlertView } from '../../shared/alerts';
import type { MethodParsedInput } from '../../shared/contract';
import { assetKey } from '../../shared/market';
import { AppError } from '../core/app-error';
import { inBackground } from '../core/background';
import { formatDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { ExchangeClient } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { SymbolInfo } from '../exchange/wire';
import type { ExchangeRules } from '../rules/exchange-rules';
import type { AlertObservation, AlertRecord, Store } from '../store';
import type { SyncStorePort } from '../sync/port';
import { changePercent, lineSide, moveSide } from './rules';
import type { AlertSession } from './session';
import { describeTarget } from './texts';

/** Alerts per profile: a bound on the work each price tick and each change costs. */
export const MAX_ALERTS_PER_PROFILE = 1000;

/** What the editor needs of the active profile's session. */
export interface AlertsOfSession {
  readonly profile: { readonly id: string };
  readonly client: ExchangeClient;
  readonly alerts: Pick<AlertSession, 'changed'>;
}

type AlertInput = MethodParsedInput<'alerts.create'>;

export interface AlertEditorDeps {
  store: Store;
  rules: ExchangeRules;
  /** What sync last read of the markets, for when the exchange cannot be reached. */
  port: Pick<SyncStorePort, 'symbolAssets'>;
  emit: Emit;
  log: Logger;
  now: () => number;
}

export function toAlertView(record: AlertRecord): AlertView {
  const { profileId: _profileId, paused, lastSide: _lastSide, state, ...rest } = record;
  return {
    ...rest,
    status: paused ? 'paused' : state.spent ? 'fired' : 'active',
  };
}

/** Two alerts watching the same thing the same way (timing aside). */
function sameTarget(a: AlertTarget, b: AlertTarget): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'price':
      return (
        b.kind === 'price' &&
        a.symbol === b.symbol &&
        a.direction === b.direction &&
        a.threshold === b.threshold
      );
    case 'price-move':
      return (
        b.kind === 'price-move' &&
        a.symbol === b.symbol &&
        a.direction === b.direction &&
        a.threshold === b.threshold &&
        a.window === b.window
      );
    case 'balance':
    case 'portfolio':
      return (
        (b.kind === 'balance' || b.kind === 'portfolio') &&
        assetKey(a.asset) === assetKey(b.asset) &&
        a.direction === b.direction &&
        a.threshold === b.threshold
      );
    case 'withdrawal':
      return b.kind === 'withdrawal' && (a.asset ?? '') === (b.asset ?? '');
  }
}

export class AlertEditor {
  constructor(private readonly deps: AlertEditorDeps) {}

  list(session: AlertsOfSession): AlertView[] {
    return this.deps.store.alerts.list(session.profile.id).map(toAlertView);
  }

  async create(session: AlertsOfSession, alert: AlertInput): Promise<AlertView> {
    const { store, now } = this.deps;
    if (store.alerts.count(session.profile.id) >= MAX_ALERTS_PER_PROFILE) {
      throw new AppError(
        'invalid-input',
        `A profile can have at most ${MAX_ALERTS_PER_PROFILE} alerts; remove one to add another.`,
        'kind',
      );
    }
    this.refuseDuplicate(session, alert);
    await this.checkTarget(session, alert);
    const record = store.alerts.create(
      session.profile.id,
      alert,
      this.startingPoint(session, alert),
      now(),
    );
    this.changed(session, record.id);
    return toAlertView(this.existing(session, record.id));
  }

  async update(session: AlertsOfSession, id: number, alert: AlertInput): Promise<AlertView> {
    this.existing(session, id);
    this.refuseDuplicate(session, alert, id);
    await this.checkTarget(session, alert);
    this.deps.store.alerts.update(
      session.profile.id,
      id,
      alert,
      this.startingPoint(session, alert),
      this.deps.now(),
    );
    this.changed(session, id);
    return toAlertView(this.existing(session, id));
  }

  setPaused(session: AlertsOfSession, id: number, paused: boolean): AlertView {
    const { alerts } = this.deps.store;
    const record = this.existing(session, id);
    alerts.setPaused(session.profile.id, id, paused, this.deps.now());
    // What happened while paused is not news: a resumed alert starts from the side it is on now.
    if (!paused) {
      const resumed = this.existing(session, id);
      alerts.observe(id, { ...this.startingPoint(session, record), state: resumed.state });
    }
    this.changed(session, id);
    return toAlertView(this.existing(session, id));
  }

  remove(session: AlertsOfSession, id: number): void {
    this.existing(session, id);
    this.deps.store.alerts.delete(session.profile.id, id);
    this.changed(session, id);
  }

  /**
   * The page re-reads the list; the evaluation re-reads what it needs (candles since a market was
   * last seen) in the background: the answer does not wait on the exchange.
   */
  private changed(session: AlertsOfSession, id: number): void {
    this.deps.emit('data.changed', { profileId: session.profile.id, kinds: ['alerts'] });
    inBackground(
      session.alerts.changed(id),
      'alerts: evaluating the changed alert',
      this.deps.log.error,
    );
  }

  private refuseDuplicate(session: AlertsOfSession, target: AlertTarget, except?: number): void {
    const twin = this.deps.store.alerts
      .withSameLine(session.profile.id, target)
      .find((other) => other.id !== except && sameTarget(other, target));
    if (twin) {
      throw new AppError(
        'invalid-input',
        `You already have this alert: ${describeTarget(target, () => undefined)}`,
        target.kind === 'withdrawal' ? 'asset' : 'threshold',
      );
    }
  }

  private existing(session: AlertsOfSession, id: number): AlertRecord {
    const record = this.deps.store.alerts.get(session.profile.id, id);
    if (!record) throw new AppError('not-found', 'That alert does not exist (any more).', 'id');
    return record;
  }

  /**
   * The exchange's markets, or, when it cannot be reached, the ones sync last read: an alert can
   * be set up offline for a market the app has seen.
   */
  private async knownMarkets(
    session: AlertsOfSession,
  ): Promise<Pick<SymbolInfo, 'symbol' | 'baseAsset' | 'quoteAsset'>[]> {
    try {
      return await this.deps.rules.listedSymbols(session.client);
    } catch (error) {
      if (!(error instanceof ExchangeError) || error.kind !== 'network') throw error;
      return this.deps.port.symbolAssets(session.profile.id);
    }
  }

  private async checkTarget(session: AlertsOfSession, target: AlertTarget): Promise<void> {
    switch (target.kind) {
      case 'price':
      case 'price-move': {
        const markets = await this.knownMarkets(session);
        if (!markets.some((market) => market.symbol.toLowerCase() === target.symbol)) {
          throw new AppError(
            'invalid-input',
            `${target.symbol.toUpperCase()} is not a market of this exchange`,
            'symbol',
          );
        }
        return;
      }
      case 'balance':
      case 'withdrawal': {
        if (target.asset === null) return;
        const key = assetKey(target.asset);
        const held = this.deps.store.funds
          .list(session.profile.id)
          .rows.some((row) => assetKey(row.asset) === key);
        if (held) return;
        const markets = await this.knownMarkets(session);
        const traded = markets.some(
          (market) => assetKey(market.baseAsset) === key || assetKey(market.quoteAsset) === key,
        );
        if (!traded) {
          throw new AppError(
            'invalid-input',
            `The exchange lists no asset ${target.asset.toUpperCase()}`,
            'asset',
          );
        }
        return;
      }
      case 'portfolio':
        try {
          await this.deps.rules.checkQuoteAsset(session.client, target.asset);
        } catch (error) {
          if (error instanceof AppError) throw new AppError(error.kind, error.message, 'asset');
          throw error;
        }
    }
  }

  /** What the app knows now of the alert's value: its starting side (none when unknown). */
  private startingPoint(
    session: AlertsOfSession,
    target: AlertTarget,
  ): Pick<AlertObservation, 'lastSide' | 'lastValue' | 'lastSeenAt'> {
    const { store } = this.deps;
    const unknown = { lastSide: null, lastValue: null, lastSeenAt: null };
    const profileId = session.profile.id;
    if (target.kind === 'price') {
      const price = store.prices.get(profileId, target.symbol);
      if (!price || price.last === '0') return unknown;
      return {
        lastSide: lineSide(target.direction, price.last, target.threshold),
        lastValue: price.last,
        lastSeenAt: price.at,
      };
    }
    if (target.kind === 'price-move' && target.window === '24h') {
      const price = store.prices.get(profileId, target.symbol);
      const change = price ? changePercent(price.last, price.open) : null;
      if (!price || change === null) return unknown;
      return {
        lastSide: moveSide(target.direction, change, target.threshold),
        lastValue: formatDecimal(change, 2),
        lastSeenAt: price.at,
      };
    }
    if (target.kind === 'balance') {
      const key = assetKey(target.asset);
      const { rows, asOf } = store.funds.list(profileId);
      if (asOf === null) return unknown;
      const free = rows.find((row) => assetKey(row.asset) === key)?.free ?? '0';
      return {
        lastSide: lineSide(target.direction, free, target.threshold),
        lastValue: free,
        lastSeenAt: asOf,
      };
    }
    return unknown;
  }
}
