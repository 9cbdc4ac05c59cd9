/**
 * The ledger as the screens ask for it: profit and loss, net worth, an asset's page, the value
 * history, the inferred entries and their annotations, the cost method, and the reports. Each read
 * builds (or takes the kept) ledger of the profile's cost method in the app's quote asset
 * (service.ts) and asks the candle scheduler, in the background, for the prices of the time it
 * still lacks. One LedgerFigures, built in app.ts, serves whichever profile is active.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { MethodName, MethodParsedInput } from '../../shared/contract';
import {
  isCostMethod,
  MAIN_ACCOUNT,
  type CostMethodName,
  type LedgerSettingsView,
  type TradeImportView,
} from '../../shared/ledger';
import type { Settings } from '../../shared/types';
import { AppError } from '../core/app-error';
import { factsOf, movedTo, reviewsByEntry } from './annotations';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { ExchangeClient } from '../exchange/client';
import type { Store } from '../store';
import { HISTORY_RANGES, type SyncEngine } from '../sync';
import type { TradeImportProgress } from '../sync/trade-import';
import type { CandleScheduler } from './candle-scheduler';
import { MissingPriceError } from './cost-basis';
import { movementsNeeding } from './entries';
import { annotate } from './source';
import type { BuiltLedger, LedgerChoice, LedgerService } from './service';
import {
  assetPageView,
  closeCoverage,
  exportsFolder,
  historyInterval,
  historyStart,
  historyView,
  inferredView,
  keptCandles,
  netWorthView,
  rangePnlView,
  summaryView,
  writeKoinlyExport,
  writeTaxReport,
} from './views';

/** Per-profile setting: the cost method the user chose (FIFO when none). */
const METHOD_KEY = 'ledger.costMethod';

/** What the ledger's reads need of the active profile's session. */
export interface LedgerSession {
  readonly profile: { readonly id: string };
  readonly client: Pick<ExchangeClient, 'market'>;
  readonly sync: Pick<SyncEngine, 'focus' | 'tradeImportProgress'>;
  /** The linked sub-accounts' trade imports: the figures wait for them as for the main one's. */
  readonly subAccountImports?: () => TradeImportProgress[];
}

/** The imports of the main account and the linked sub-accounts as one: complete when each is. */
function importOf(session: LedgerSession): Omit<TradeImportView, 'storedTrades'> {
  const main = session.sync.tradeImportProgress();
  const subs = session.subAccountImports?.() ?? [];
  if (subs.length === 0) return main;
  const all = [main, ...subs];
  const error = all.find((p) => p.error !== undefined)?.error;
  return {
    state: all.some((p) => p.state === 'running')
      ? 'running'
      : all.some((p) => p.state === 'error')
        ? 'error'
        : main.state,
    symbolsDone: all.reduce((n, p) => n + p.symbolsDone, 0),
    symbolsTotal: all.reduce((n, p) => n + p.symbolsTotal, 0),
    pages: all.reduce((n, p) => n + p.pages, 0),
    trades: all.reduce((n, p) => n + p.trades, 0),
    complete: all.every((p) => p.complete),
    ...(error !== undefined ? { error } : {}),
  };
}

export interface LedgerFiguresDeps {
  store: Store;
  ledger: LedgerService;
  candles: CandleScheduler;
  emit: Emit;
  log: Logger;
  settings: () => Settings;
  now: () => number;
}

type Input<M extends MethodName> = MethodParsedInput<M>;

export class LedgerFigures {
  constructor(private readonly deps: LedgerFiguresDeps) {}

  async summary(session: LedgerSession, { account, range }: Input<'ledger.summary'>) {
    const profileId = this.onScreen(session);
    const choice = this.choiceOf(profileId);
    const ledger = await this.built(profileId, choice);
    const pricesLacking = this.deps.ledger.candlesLacking(ledger);
    this.pricesInBackground(
      session,
      choice,
      pricesLacking.length > 0,
      this.deps.ledger.newestLacking(ledger),
    );
    const now = this.deps.now();
    const view = summaryView(ledger, {
      at: now,
      ...(account !== undefined ? { account } : {}),
      importProgress: importOf(session),
      pricesLacking,
      pricesProgress: this.deps.candles.progress(profileId),
    });
    if (range === undefined) return view;
    // The service's range P&L keeps the ledger before the range's start instead of replaying
    // every entry on each ask (the P&L card asks after every live batch).
    // An asset no market prices now is left out of the range as the summary leaves it out.
    const pnl = this.deps.ledger.rangePnl(ledger, {
      from: now - HISTORY_RANGES[range].spanMs,
      to: now,
      leftOut: new Set(view.unpriced),
      ...(account !== undefined ? { account } : {}),
    });
    return { ...view, range: rangePnlView(pnl) };
  }

  /** Every account's value, or one account's (`account`), and their sum. */
  async netWorth(session: LedgerSession, { account }: Input<'ledger.netWorth'>) {
    return netWorthView(await this.built(this.onScreen(session)), this.deps.now(), account);
  }

  /** One asset's page for every account together, or for one account (`account`). */
  async asset(session: LedgerSession, { asset, method, account }: Input<'ledger.asset'>) {
    const profileId = this.onScreen(session);
    // The page's own method, when the user picked one there, else the profile's setting.
    const choice = { ...this.choiceOf(profileId), ...(method ? { method } : {}) };
    this.pricesInBackground(session, choice);
    return assetPageView(await this.built(profileId, choice), asset, this.deps.now(), account);
  }

  async history(session: LedgerSession, { range }: Input<'ledger.history'>) {
    const { store, candles } = this.deps;
    const profileId = this.onScreen(session);
    const choice = this.choiceOf(profileId);
    this.pricesInBackground(session, choice);
    const now = this.deps.now();
    const from = now - HISTORY_RANGES[range].spanMs;
    const built = await this.built(profileId, choice);
    const interval = historyInterval(historyStart(built, from, now), now);
    // The main account's, as the Portfolio's total is: sub-accounts' own trades are not read.
    const view = historyView(built, {
      from,
      at: now,
      account: MAIN_ACCOUNT,
      importProgress: importOf(session),
      coverage: closeCoverage(store, profileId),
      ...(interval ? { finer: keptCandles(store, profileId, interval, choice.currency) } : {}),
    });
    if (view.pending.prices.length > 0) this.pricesInBackground(session, choice, true);
    if (interval && view.pending.finer.length > 0) {
      candles.finer(profileId, session.client, view.pending.finer, from, interval);
    }
    return view;
  }

  async inferred(session: LedgerSession) {
    const ledger = await this.built(this.onScreen(session));
    const needing = movementsNeeding(ledger.entries);
    const reviews = reviewsByEntry(ledger.annotations);
    return [...ledger.inferred]
      .reverse()
      .map((entry) => inferredView(entry, needing, reviews.get(entry.id) ?? null));
  }

  async annotate(session: LedgerSession, { id, label, costBasis }: Input<'ledger.annotate'>) {
    const { store, emit, now } = this.deps;
    const profileId = this.onScreen(session);
    const entry = (await this.built(profileId)).inferred.find((candidate) => candidate.id === id);
    if (!entry) {
      throw new AppError('not-found', 'That inferred entry is no longer in the ledger.', 'id');
    }
    if (costBasis && entry.amount.startsWith('-')) {
      throw new AppError('invalid-input', 'Only a credit has a cost basis.', 'costBasis');
    }
    const annotation = {
      ...(label ? { label } : {}),
      ...(costBasis ? { costBasis } : {}),
    };
    if (annotation.costBasis) {
      // The basis must be worth something in the reporting currency at the entry's time.
      const { quoteAsset } = this.deps.settings();
      const probe = (await this.built(profileId)).prices;
      const price = probe.priceAt(annotation.costBasis.currency, quoteAsset, entry.time);
      if (price === null || price === undefined) {
        throw new AppError(
          'invalid-input',
          `No market prices ${annotation.costBasis.currency.toUpperCase()} in ${quoteAsset.toUpperCase()}`,
          'costBasis',
        );
      }
    }
    // What the user writes now about this entry takes the place of a label or cost that moved
    // to it from another interval: they saw both and chose.
    const replaces = movedTo((await this.built(profileId)).annotations, id);
    annotate(store, profileId, id, annotation, now(), factsOf(entry), replaces);
    emit('data.changed', { profileId, kinds: ['portfolio', 'trades'] });
    const ledger = await this.built(profileId);
    const updated = ledger.inferred.find((candidate) => candidate.id === id);
    const review = reviewsByEntry(ledger.annotations).get(id) ?? null;
    return inferredView(updated ?? entry, movementsNeeding(ledger.entries), review);
  }

  /** Keeps a label or cost that moved or changed with its entry, or removes it. */
  async review(
    session: LedgerSession,
    { id, action }: Input<'ledger.review'>,
  ): Promise<{ ok: true }> {
    const { store, emit, now } = this.deps;
    const profileId = this.onScreen(session);
    const item = (await this.built(profileId)).annotations.find(
      (candidate) => candidate.keptId === id,
    );
    if (!item) throw new AppError('not-found', 'No label or cost is kept under that id.', 'id');
    if (action === 'remove') {
      store.ledger.removeAnnotation(profileId, id);
    } else {
      if (!item.entry) {
        throw new AppError(
          'invalid-input',
          'No inferred entry covers it now: remove it, or label the entry it belongs to.',
          'action',
        );
      }
      const facts = factsOf(item.entry);
      if (!store.ledger.confirmAnnotation(profileId, id, item.entry.id, facts, now())) {
        throw new AppError(
          'invalid-input',
          'That entry has a label or cost of its own now: remove this one, or edit that one.',
          'action',
        );
      }
    }
    emit('data.changed', { profileId, kinds: ['portfolio', 'trades'] });
    return { ok: true };
  }

  settingsOf(profileId: string): LedgerSettingsView {
    return { method: this.methodOf(profileId), currency: this.deps.settings().quoteAsset };
  }

  setMethod(profileId: string, method: CostMethodName): LedgerSettingsView {
    this.deps.store.settings.set(METHOD_KEY, method, profileId);
    this.deps.emit('data.changed', { profileId, kinds: ['portfolio', 'settings'] });
    return this.settingsOf(profileId);
  }

  async taxReport(
    session: LedgerSession,
    { year, method, longTermAfterDays }: Input<'ledger.taxReport'>,
  ) {
    const profileId = this.onScreen(session);
    const choice = { ...this.choiceOf(profileId), ...(method ? { method } : {}) };
    return writeTaxReport(this.deps.store, await this.built(profileId, choice), {
      year,
      longTermAfterDays,
    });
  }

  async koinlyExport(session: LedgerSession) {
    const profileId = this.onScreen(session);
    return writeKoinlyExport(this.deps.store, await this.built(profileId), this.deps.now());
  }

  /** The reports' folder, made if need be and shown in the system's file manager. */
  openExportsFolder(): { folder: string } {
    const folder = exportsFolder(this.deps.store);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    openInFileManager(folder, (message) => this.deps.log.warn(message));
    return { folder };
  }

  /** The ledger's screens are open: sync keeps what the figures are built from fresh. */
  private onScreen(session: LedgerSession): string {
    session.sync.focus(['trades', 'funds', 'prices', 'withdrawals', 'subAccounts', 'transfers']);
    return session.profile.id;
  }

  private methodOf(profileId: string): CostMethodName {
    const chosen = this.deps.store.settings.get<string>(METHOD_KEY, profileId);
    return isCostMethod(chosen) ? chosen : 'fifo';
  }

  private choiceOf(profileId: string): LedgerChoice {
    return { method: this.methodOf(profileId), currency: this.deps.settings().quoteAsset };
  }

  /** Built in turns of the event loop: a long history must not hold up every other call. */
  private async built(profileId: string, choice = this.choiceOf(profileId)): Promise<BuiltLedger> {
    try {
      return await this.deps.ledger.ledgerInTurns(profileId, choice);
    } catch (error) {
      if (error instanceof MissingPriceError) {
        throw new AppError('invalid-input', `${error.message}. Choose another currency.`);
      }
      throw error;
    }
  }

  /**
   * The candles of the ledger's prices, fetched in the background. Candles that do not reach
   * back to the first entry (the import found older trades since the last look) are looked for
   * again soon, not after the usual wait; an entry's time no look asked for (a live fill), at once.
   */
  private pricesInBackground(
    session: LedgerSession,
    choice: LedgerChoice,
    missing = false,
    newestLacking: number | null = null,
  ): void {
    this.deps.candles.prices(session.profile.id, session.client, choice, missing, newestLacking);
  }
}

/** The system's own file manager, on the folder only (nothing the page names is opened). */
function openInFileManager(folder: string, warn: (message: string) => void): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [folder], { detached: true, stdio: 'ignore' });
    child.on('error', (error) => warn(`Could not open ${folder}: ${error.message}`));
    child.unref();
  } catch (error) {
    warn(`Could not open ${folder}: ${String(error)}`);
  }
}
