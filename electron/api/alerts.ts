/**
 * alerts.*: the active profile's price and balance alerts. The schemas have checked the shape
 * (a positive decimal line, a known kind); here the market or asset is checked against what the
 * exchange lists, a duplicate is refused, and a new or edited alert starts from the side of its
 * line the app knows now, so a crossing right after it is made is not lost. The running session's
 * evaluation (electron/alerts/) is told of every change.
 */
import type { AlertTarget, AlertView } from '../../shared/alerts';
import { assetKey } from '../../shared/market';
import type { AlertObservation, AlertRecord } from '../store';
import { changePercent, lineSide, moveSide } from '../alerts/rules';
import { inBackground } from '../core/background';
import { formatDecimal } from '../core/decimal';
import { describeTarget } from '../alerts/texts';
import { ExchangeError } from '../exchange/errors';
import type { SymbolInfo } from '../exchange/wire';
import type { ApiContext, HandlerGroup } from './context';
import { AppError } from './errors';
import type { ActiveSession } from '../session/manager';

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

/**
 * The exchange's markets, or, when it cannot be reached, the ones sync last read: an alert can
 * be set up offline for a market the app has seen.
 */
async function knownMarkets(
  ctx: ApiContext,
  session: ActiveSession,
): Promise<Pick<SymbolInfo, 'symbol' | 'baseAsset' | 'quoteAsset'>[]> {
  try {
    return await ctx.rules.listedSymbols(session.client);
  } catch (error) {
    if (!(error instanceof ExchangeError) || error.kind !== 'network') throw error;
    return ctx.syncPort.symbolAssets(session.profile.id);
  }
}

async function checkTarget(
  ctx: ApiContext,
  session: ActiveSession,
  target: AlertTarget,
): Promise<void> {
  switch (target.kind) {
    case 'price':
    case 'price-move': {
      const markets = await knownMarkets(ctx, session);
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
      const held = ctx.store.funds
        .list(session.profile.id)
        .rows.some((row) => assetKey(row.asset) === key);
      if (held) return;
      const markets = await knownMarkets(ctx, session);
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
        await ctx.rules.checkQuoteAsset(session.client, target.asset);
      } catch (error) {
        if (error instanceof AppError) throw new AppError(error.kind, error.message, 'asset');
        throw error;
      }
  }
}

/** What the app knows now of the alert's value: its starting side (none when unknown). */
function startingPoint(
  ctx: ApiContext,
  session: ActiveSession,
  target: AlertTarget,
): Pick<AlertObservation, 'lastSide' | 'lastValue' | 'lastSeenAt'> {
  const unknown = { lastSide: null, lastValue: null, lastSeenAt: null };
  const profileId = session.profile.id;
  if (target.kind === 'price') {
    const price = ctx.store.prices.get(profileId, target.symbol);
    if (!price || price.last === '0') return unknown;
    return {
      lastSide: lineSide(target.direction, price.last, target.threshold),
      lastValue: price.last,
      lastSeenAt: price.at,
    };
  }
  if (target.kind === 'price-move' && target.window === '24h') {
    const price = ctx.store.prices.get(profileId, target.symbol);
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
    const { rows, asOf } = ctx.store.funds.list(profileId);
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

/** Alerts per profile. */
export const MAX_ALERTS_PER_PROFILE = 1000;

export function alertsHandlers(ctx: ApiContext) {
  // The evaluation re-reads what it needs (candles since a market was last seen) in the
  // background: the answer does not wait on the exchange.
  const changed = (session: ActiveSession, id: number) => {
    ctx.emit('data.changed', { profileId: session.profile.id, kinds: ['alerts'] });
    inBackground(session.alerts.changed(id), 'alerts: evaluating the changed alert', ctx.log.error);
  };
  const refuseDuplicate = (session: ActiveSession, target: AlertTarget, except?: number) => {
    const twin = session.alerts.repository
      .withSameLine(session.profile.id, target)
      .find((other) => other.id !== except && sameTarget(other, target));
    if (twin) {
      throw new AppError(
        'invalid-input',
        `You already have this alert: ${describeTarget(target, () => undefined)}`,
        target.kind === 'withdrawal' ? 'asset' : 'threshold',
      );
    }
  };
  const existing = (session: ActiveSession, id: number): AlertRecord => {
    const record = session.alerts.repository.get(session.profile.id, id);
    if (!record) throw new AppError('not-found', 'That alert does not exist (any more).', 'id');
    return record;
  };

  return {
    'alerts.list': async () => {
      const session = ctx.session.require();
      return session.alerts.repository.list(session.profile.id).map(toAlertView);
    },
    'alerts.create': async (input) => {
      const session = ctx.session.require();
      const alert = input;
      // A bound on the work each price tick and each change costs the main process.
      if (session.alerts.repository.count(session.profile.id) >= MAX_ALERTS_PER_PROFILE) {
        throw new AppError(
          'invalid-input',
          `A profile can have at most ${MAX_ALERTS_PER_PROFILE} alerts; remove one to add another.`,
          'kind',
        );
      }
      refuseDuplicate(session, alert);
      await checkTarget(ctx, session, alert);
      const record = session.alerts.repository.create(
        session.profile.id,
        alert,
        startingPoint(ctx, session, alert),
        ctx.now(),
      );
      changed(session, record.id);
      return toAlertView(existing(session, record.id));
    },
    'alerts.update': async ({ id, alert }) => {
      const session = ctx.session.require();
      existing(session, id);
      refuseDuplicate(session, alert, id);
      await checkTarget(ctx, session, alert);
      session.alerts.repository.update(
        session.profile.id,
        id,
        alert,
        startingPoint(ctx, session, alert),
        ctx.now(),
      );
      changed(session, id);
      return toAlertView(existing(session, id));
    },
    'alerts.setPaused': async ({ id, paused }) => {
      const session = ctx.session.require();
      const record = existing(session, id);
      session.alerts.repository.setPaused(session.profile.id, id, paused, ctx.now());
      // What happened while paused is not news: a resumed alert starts from the side it is on now.
      if (!paused) {
        const resumed = existing(session, id);
        session.alerts.repository.observe(id, {
          ...startingPoint(ctx, session, record),
          state: resumed.state,
        });
      }
      changed(session, id);
      return toAlertView(existing(session, id));
    },
    'alerts.remove': async ({ id }) => {
      const session = ctx.session.require();
      existing(session, id);
      session.alerts.repository.delete(session.profile.id, id);
      changed(session, id);
      return { removed: true as const };
    },
  } satisfies HandlerGroup<'alerts'>;
}
