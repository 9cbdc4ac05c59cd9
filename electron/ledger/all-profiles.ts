/**
 * Every profile together: each profile (its own exchange account and its sub-accounts) is the
 * ledger LedgerService builds from what the store keeps of it, valued in the Settings' quote asset
 * at its own exchange's prices; the whole is their sum. An inactive profile's figures are those of
 * its cache (its balances and prices as last read, and said as of when); the active profile's are
 * kept fresh by its session. Candles the ledgers lack are fetched in the background for every
 * profile (public market data: an inactive profile's exchange is asked without its key).
 *
 * Every figure of the whole covers the same profiles; a profile that cannot be included (its
 * balances never read, its holdings unpriced in the currency, a practice exchange beside real ones)
 * is named with the reason, never left out silently.
 */
import type { MethodParsedInput } from '../../shared/contract';
import { Decimal, divide } from '../../shared/exact-decimal';
import type {
  AllProfilesHistoryView,
  AllProfilesView,
  CostMethodName,
  LedgerTotalsView,
  ProfileLeftOutView,
  ProfileShareView,
  RangePnlView,
} from '../../shared/ledger';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import { formatDecimal } from '../core/decimal';
import type { ExchangeClient } from '../exchange/client';
import type { Store } from '../store';
import type { ProfileRow } from '../store/types';
import { HISTORY_RANGES } from '../sync';
import { storePort } from '../sync/store-port';
import { tradeHistoryComplete } from '../sync/trade-import';
import type { CandleScheduler } from './candle-scheduler';
import { MissingPriceError } from './cost-basis';
import type { LedgerSession } from './figures';
import { LEDGER_INTERVAL } from './prices';
import type { BuiltLedger, LedgerChoice, LedgerService } from './service';
import {
  closeCoverage,
  coversText,
  historyInterval,
  historyStart,
  historyView,
  keptCandles,
  rangePnlView,
  summaryView,
} from './views';

/** A share of the whole (a profile's, an asset's) keeps this many places, rounded half-even. */
export const SHARE_PLACES = 6;

type MarketClient = Pick<ExchangeClient, 'market'>;

export interface AllProfilesDeps {
  store: Store;
  ledger: LedgerService;
  candles: CandleScheduler;
  /** The Settings' quote asset: the whole's currency. */
  currency: () => string;
  /** A profile's own cost method. */
  methodOf: (profileId: string) => CostMethodName;
  /** The active profile's session, if one runs. */
  active: () => LedgerSession | null;
  /** A client for a profile's public market data (candles); null when its exchange is not there. */
  marketClient: (profileId: string) => MarketClient | null;
  now: () => number;
}

/** A profile the whole includes: its ledger and what its figures still wait for. */
interface Included {
  row: ProfileRow;
  built: BuiltLedger;
  choice: LedgerChoice;
  session: LedgerSession | null;
  client: MarketClient | null;
  importComplete: boolean;
  balancesAt: number;
  pricesAt: number | null;
}

type Input<M extends 'ledger.allProfiles' | 'ledger.allProfilesHistory'> = MethodParsedInput<M>;

const ZERO = new Decimal(0);
const text = formatDecimal;

export class AllProfiles {
  constructor(private readonly deps: AllProfilesDeps) {}

  async summary({ range }: Input<'ledger.allProfiles'>): Promise<AllProfilesView> {
    const { included, leftOut, currency } = await this.profiles();
    const at = this.deps.now();
    const span = range === undefined ? null : { from: at - HISTORY_RANGES[range].spanMs, to: at };
    const parts = included.map((part) => {
      const pricesLacking = this.deps.ledger.candlesLacking(part.built);
      this.pricesInBackground(part, pricesLacking.length > 0);
      const view = summaryView(part.built, {
        at,
        importProgress: this.importOf(part),
        pricesLacking,
      });
      const pnl = span
        ? rangePnlView(
            this.deps.ledger.rangePnl(part.built, { ...span, leftOut: new Set(view.unpriced) }),
          )
        : null;
      return { part, view, pnl };
    });
    const total = parts.reduce((sum, { view }) => sum.plus(view.totals.value), ZERO);
    const assets = new Map<string, { quantity: Decimal; value: Decimal }>();
    for (const { view } of parts) {
      for (const row of view.assets) {
        if (row.price === null || new Decimal(row.quantity).isZero()) continue;
        const held = assets.get(row.asset) ?? { quantity: ZERO, value: ZERO };
        assets.set(row.asset, {
          quantity: held.quantity.plus(row.quantity),
          value: held.value.plus(row.value),
        });
      }
    }
    const profiles: ProfileShareView[] = parts.map(({ part, view, pnl }) => ({
      profileId: part.row.id,
      name: part.row.name,
      exchange: part.row.baseUrl,
      active: part.session !== null,
      isDemo: part.row.isDemo,
      method: part.choice.method,
      covers: coversText(part.built, null),
      accounts: [MAIN_ACCOUNT, ...view.subAccounts],
      value: view.totals.value,
      share: shareOf(new Decimal(view.totals.value), total),
      balancesAt: part.balancesAt,
      pricesAt: part.pricesAt,
      totals: view.totals,
      range: pnl,
      unpriced: view.unpriced,
      computing: view.computing,
    }));
    const computing = profiles
      .filter((profile) => profile.computing !== null)
      .map((profile) => ({
        profileId: profile.profileId,
        name: profile.name,
        trades: profile.computing!.trades,
        prices: profile.computing!.prices,
      }));
    return {
      currency,
      at,
      total: text(total),
      profiles,
      leftOut,
      allocation: [...assets]
        .map(([asset, held]) => ({ asset, ...held }))
        .sort((a, b) => b.value.comparedTo(a.value) || a.asset.localeCompare(b.asset))
        .map(({ asset, quantity, value }) => ({
          asset,
          quantity: text(quantity),
          value: text(value),
          share: shareOf(value, total),
        })),
      totals: sumTotals(profiles.map((profile) => profile.totals)),
      range: span
        ? sumRanges(
            profiles.map((profile) => profile.range!),
            span,
          )
        : null,
      unpriced: [...new Set(profiles.flatMap((profile) => profile.unpriced))].sort(),
      computing: computing.length > 0 ? computing : null,
      includes: includesText(profiles, leftOut, currency),
    };
  }

  async history({ range }: Input<'ledger.allProfilesHistory'>): Promise<AllProfilesHistoryView> {
    const { store, candles } = this.deps;
    const { included, leftOut, currency } = await this.profiles();
    const at = this.deps.now();
    const from = at - HISTORY_RANGES[range].spanMs;
    // One set of times for every profile: from the earliest start among them.
    const start = Math.min(at, ...included.map((part) => historyStart(part.built, from, at)));
    const interval = historyInterval(start, at);
    const views = included.map((part) => {
      const profileId = part.row.id;
      const view = historyView(part.built, {
        from,
        at,
        start,
        importProgress: this.importOf(part),
        coverage: closeCoverage(store, profileId),
        ...(interval
          ? { finer: keptCandles(store, profileId, interval, part.choice.currency) }
          : {}),
      });
      if (view.pending.prices.length > 0) this.pricesInBackground(part, true);
      if (interval && part.client && view.pending.finer.length > 0) {
        candles.finer(profileId, part.client, view.pending.finer, from, interval);
      }
      return { part, view };
    });
    const points: AllProfilesHistoryView['points'] = (views[0]?.view.points ?? []).map(
      (point, index) => {
        let value = ZERO;
        let onInferred = false;
        for (const { view } of views) {
          const own = view.points[index]!;
          value = value.plus(own.value);
          onInferred ||= own.onInferred;
        }
        return { time: point.time, value: text(value), onInferred };
      },
    );
    const intervals = new Set(views.map(({ view }) => view.interval));
    return {
      currency,
      interval: intervals.size === 1 ? [...intervals][0]! : LEDGER_INTERVAL,
      points,
      profiles: included.map((part) => ({ profileId: part.row.id, name: part.row.name })),
      leftOut,
      pending: views
        .filter(({ view }) => view.pending.import !== null || view.pending.prices.length > 0)
        .map(({ part, view }) => ({
          profileId: part.row.id,
          name: part.row.name,
          import: view.pending.import !== null,
          prices: view.pending.prices,
        })),
    };
  }

  /** Every listed profile's ledger in the currency, or the reason it is left out. */
  private async profiles(): Promise<{
    included: Included[];
    leftOut: ProfileLeftOutView[];
    currency: string;
  }> {
    const { store, ledger } = this.deps;
    const currency = this.deps.currency();
    const port = storePort(store);
    const session = this.deps.active();
    session?.sync.focus(['trades', 'funds', 'prices', 'withdrawals', 'subAccounts', 'transfers']);
    const rows = store.profiles.list();
    // A practice exchange's play money is no part of a real total; alone, it is shown.
    const onlyDemo = rows.every((row) => row.isDemo);
    const included: Included[] = [];
    const leftOut: ProfileLeftOutView[] = [];
    const out = (row: ProfileRow, reason: string) =>
      leftOut.push({ profileId: row.id, name: row.name, reason });
    for (const row of rows) {
      const active = session?.profile.id === row.id ? session : null;
      if (row.isDemo && !onlyDemo) {
        out(row, 'A demo profile: its practice exchange holds no real funds.');
        continue;
      }
      if (row.isDemo && !active) {
        out(row, 'A demo profile: its practice exchange runs only while it is the active profile.');
        continue;
      }
      const funds = port.funds(row.id);
      if (funds.length === 0) {
        out(
          row,
          active
            ? 'Its balances have not been read from its exchange yet.'
            : 'Its balances were never read from its exchange: switch to it once while the exchange answers.',
        );
        continue;
      }
      const choice = { method: this.deps.methodOf(row.id), currency };
      let built: BuiltLedger;
      try {
        built = await ledger.ledgerInTurns(row.id, choice);
      } catch (error) {
        if (!(error instanceof MissingPriceError)) throw error;
        out(
          row,
          `Its exchange has no market that prices ${error.asset.toUpperCase()} in ${currency.toUpperCase()}.`,
        );
        continue;
      }
      const prices = port.prices(row.id);
      included.push({
        row,
        built,
        choice,
        session: active,
        client: active ? active.client : this.deps.marketClient(row.id),
        importComplete: tradeHistoryComplete(port, row.id),
        balancesAt: Math.max(...funds.map((fund) => fund.updatedAt)),
        pricesAt: prices.length > 0 ? Math.max(...prices.map((price) => price.at)) : null,
      });
    }
    return { included, leftOut, currency };
  }

  /** The active profile's import as its session runs it; an inactive one's as last kept. */
  private importOf(part: Included) {
    if (part.session) return part.session.sync.tradeImportProgress();
    return {
      state: 'idle' as const,
      symbolsDone: 0,
      symbolsTotal: 0,
      pages: 0,
      trades: 0,
      complete: part.importComplete,
    };
  }

  private pricesInBackground(part: Included, missing: boolean): void {
    if (part.client) this.deps.candles.prices(part.row.id, part.client, part.choice, missing);
  }
}

function shareOf(value: Decimal, total: Decimal): string {
  return total.isZero() ? '0' : text(divide(value, total, SHARE_PLACES));
}

function sumTotals(totals: readonly LedgerTotalsView[]): LedgerTotalsView {
  const sum = (field: keyof LedgerTotalsView) =>
    text(totals.reduce((acc, row) => acc.plus(row[field]), ZERO));
  return {
    value: sum('value'),
    costBasis: sum('costBasis'),
    realizedPnl: sum('realizedPnl'),
    unrealizedPnl: sum('unrealizedPnl'),
    feesPaid: sum('feesPaid'),
  };
}

function sumRanges(
  ranges: readonly RangePnlView[],
  span: { from: number; to: number },
): RangePnlView {
  const sum = (field: 'realizedPnl' | 'feesPaid' | 'unrealizedChange' | 'pnl') =>
    text(ranges.reduce((acc, row) => acc.plus(row[field]), ZERO));
  return {
    ...span,
    realizedPnl: sum('realizedPnl'),
    feesPaid: sum('feesPaid'),
    unrealizedChange: sum('unrealizedChange'),
    pnl: sum('pnl'),
  };
}

function includesText(
  profiles: readonly ProfileShareView[],
  leftOut: readonly ProfileLeftOutView[],
  currency: string,
): string {
  const count = profiles.length;
  const head =
    count === 0
      ? 'No profile'
      : `${count} ${count === 1 ? 'profile' : 'profiles'}, every account of each, each at its own exchange's prices in ${currency.toUpperCase()}: ${profiles
          .map((profile) => profile.name)
          .join(', ')}`;
  const out =
    leftOut.length === 0 ? '' : `; left out: ${leftOut.map((profile) => profile.name).join(', ')}`;
  return `${head}${out}`;
}
