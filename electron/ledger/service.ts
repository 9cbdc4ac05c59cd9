/**
 * The ledger of a profile, built from the store: known movements, reconciled against every
 * balance observation into inferred entries, applied in ledger order by the chosen cost method,
 * valued in the chosen currency at the prices of the time. A built ledger is kept until anything
 * it was built from changes (ledgerFingerprint), so screens that ask again cost a query.
 *
 * What the screens are shown of it is in views.ts.
 */
import { assetKey } from '../../shared/market';
import type { ExchangeClient } from '../exchange';
import type { Store } from '../store';
import { buildLedger, Ledger, type CostMethod } from './cost-basis';
import { sortEntries, type InferredEntry, type LedgerEntry } from './entries';
import { fetchCloses, keptCloses, MarketPrices, tickersOf } from './prices';
import { reconcile } from './reconcile';
import { keepObservations, ledgerFingerprint, readLedgerInputs, type LedgerInputs } from './source';

/** Prices within this span of now are today's (the tickers), older ones the candles'. */
const PRESENT_MS = 60_000;

export interface LedgerChoice {
  method: CostMethod;
  /** The reporting currency, any asset with a price path ("usdt", "inr", ...). */
  currency: string;
}

export interface BuiltLedger {
  profileId: string;
  choice: LedgerChoice;
  inputs: LedgerInputs;
  inferred: InferredEntry[];
  /** Every entry, inferred ones included, in ledger order. */
  entries: LedgerEntry[];
  ledger: Ledger;
  prices: MarketPrices;
  builtAt: number;
  fingerprint: string;
}

/** Builds (or reuses) ledgers of the profiles of one store. */
export class LedgerService {
  private readonly built = new Map<string, BuiltLedger>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** The ledger as the store has it now: rebuilt only when its inputs changed. */
  ledger(profileId: string, choice: LedgerChoice): BuiltLedger {
    const currency = assetKey(choice.currency);
    const fingerprint = ledgerFingerprint(this.store, profileId);
    const key = `${profileId}\u0000${choice.method}\u0000${currency}`;
    const kept = this.built.get(key);
    if (kept && kept.fingerprint === fingerprint && this.now() - kept.builtAt < PRESENT_MS) {
      return kept;
    }
    keepObservations(this.store, profileId);
    const built = buildFromStore(
      this.store,
      profileId,
      { method: choice.method, currency },
      this.now(),
    );
    built.fingerprint = ledgerFingerprint(this.store, profileId);
    this.built.set(key, built);
    return built;
  }

  /** Fetches the candles the ledger's prices of the time need (once; then kept). */
  async fetchPrices(
    profileId: string,
    client: Pick<ExchangeClient, 'market'>,
    choice: LedgerChoice,
  ): Promise<void> {
    const built = this.ledger(profileId, choice);
    const first = built.entries[0]?.time;
    if (first === undefined) return;
    const symbols = built.prices.pathSymbols(assetsOf(built.entries), built.ledger.reportingAsset);
    await fetchCloses(this.store, client, profileId, symbols, first, this.now());
    this.forget(profileId);
  }

  forget(profileId: string): void {
    for (const key of [...this.built.keys()]) {
      if (key.startsWith(`${profileId}\u0000`)) this.built.delete(key);
    }
  }
}

function assetsOf(entries: readonly LedgerEntry[]): Set<string> {
  const assets = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'trade') {
      assets.add(entry.base);
      assets.add(entry.quote);
      assets.add(entry.commissionAsset);
    } else {
      assets.add(entry.asset);
    }
  }
  return assets;
}

export function buildFromStore(
  store: Store,
  profileId: string,
  choice: LedgerChoice,
  now: number,
): BuiltLedger {
  const currency = assetKey(choice.currency);
  const inputs = readLedgerInputs(store, profileId);
  const known: LedgerEntry[] = [...inputs.trades, ...inputs.others];
  const inferred = reconcile(known, inputs.snapshots, { annotations: inputs.annotations });
  const entries = sortEntries([...known, ...inferred]);
  const assets = assetsOf(entries);
  assets.add(currency);
  const tickers = tickersOf(store, profileId, assets);
  const symbols = new MarketPrices(tickers, new Map(), now).pathSymbols(assets, currency);
  const prices = new MarketPrices(tickers, keptCloses(store, profileId, symbols), now - PRESENT_MS);
  const ledger = buildLedger(entries, {
    method: choice.method,
    reportingAsset: currency,
    priceAt: prices.priceAt,
    unpricedCredits: 'missing-basis',
  });
  return {
    profileId,
    choice: { method: choice.method, currency },
    inputs,
    inferred,
    entries,
    ledger,
    prices,
    builtAt: now,
    fingerprint: '',
  };
}
