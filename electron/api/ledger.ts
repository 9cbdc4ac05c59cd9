/**
 * ledger.*: profit and loss, net worth, an asset's page, the value history and the reports, from
 * the ledger built out of the store (see electron/ledger/service.ts). The cost method is a
 * setting of the profile (FIFO unless the user chose LIFO, HIFO or average cost); the reporting currency is the
 * app's quote asset. Candles for the prices of the time are fetched in the background, once
 * (ledger/candle-scheduler.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isCostMethod, type CostMethodName, type LedgerSettingsView } from '../../shared/ledger';
import {
  assetPageView,
  closeCoverage,
  historyInterval,
  keptCandles,
  exportsFolder,
  historyView,
  inferredView,
  movementsNeeding,
  MAIN_ACCOUNT,
  reviewsByEntry,
  MissingPriceError,
  netWorthView,
  rangePnlView,
  summaryView,
  writeKoinlyExport,
  writeTaxReport,
  annotate,
  factsOf,
  movedTo,
  type LedgerChoice,
} from '../ledger';
import { HISTORY_RANGES } from '../sync';
import type { ApiContext, HandlerGroup } from './context';
import { AppError } from './errors';

const METHOD_KEY = 'ledger.costMethod';

export function ledgerHandlers(ctx: ApiContext) {
  const methodOf = (profileId: string): CostMethodName => {
    const chosen = ctx.store.settings.get<string>(METHOD_KEY, profileId);
    return isCostMethod(chosen) ? chosen : 'fifo';
  };

  const choiceOf = (profileId: string): LedgerChoice => ({
    method: methodOf(profileId),
    currency: ctx.settings().quoteAsset,
  });

  const active = () => {
    const session = ctx.session.require();
    session.sync.focus(['trades', 'funds', 'prices', 'withdrawals', 'subAccounts', 'transfers']);
    return session;
  };

  // Candles that do not reach back to the first entry (the import found older trades since the
  // last look) are looked for again soon, not after the usual wait.
  const pricesInBackground = (
    profileId: string,
    choice: LedgerChoice,
    built?: ReturnType<typeof ctx.ledger.ledger>,
    missing = built !== undefined && ctx.ledger.candlesLacking(built).length > 0,
  ) => ctx.candles.prices(profileId, ctx.session.require().client, choice, missing);

  const built = (profileId: string, choice = choiceOf(profileId)) => {
    try {
      return ctx.ledger.ledger(profileId, choice);
    } catch (error) {
      if (error instanceof MissingPriceError) {
        throw new AppError('invalid-input', `${error.message}. Choose another currency.`);
      }
      throw error;
    }
  };

  const settingsView = (profileId: string): LedgerSettingsView => ({
    method: methodOf(profileId),
    currency: ctx.settings().quoteAsset,
  });

  return {
    'ledger.summary': async ({ account, range }) => {
      const { profile, sync } = active();
      const choice = choiceOf(profile.id);
      const ledger = built(profile.id, choice);
      const pricesLacking = ctx.ledger.candlesLacking(ledger);
      pricesInBackground(profile.id, choice, ledger, pricesLacking.length > 0);
      const now = ctx.now();
      const view = summaryView(ledger, {
        at: now,
        ...(account !== undefined ? { account } : {}),
        importProgress: sync.tradeImportProgress(),
        pricesLacking,
      });
      if (range === undefined) return view;
      // The service's range P&L keeps the ledger before the range's start instead of replaying
      // every entry on each ask (the P&L card asks after every live batch).
      const pnl = ctx.ledger.rangePnl(ledger, {
        from: now - HISTORY_RANGES[range].spanMs,
        to: now,
        ...(account !== undefined ? { account } : {}),
      });
      return { ...view, range: rangePnlView(pnl) };
    },
    'ledger.netWorth': async () => {
      const { profile } = active();
      return netWorthView(built(profile.id), ctx.now());
    },
    'ledger.asset': async ({ asset, method }) => {
      const { profile } = active();
      // The page's own method, when the user picked one there, else the profile's setting.
      const choice = { ...choiceOf(profile.id), ...(method ? { method } : {}) };
      pricesInBackground(profile.id, choice);
      return assetPageView(built(profile.id, choice), asset, ctx.now());
    },
    'ledger.history': async ({ range }) => {
      const { profile, sync } = active();
      const choice = choiceOf(profile.id);
      pricesInBackground(profile.id, choice);
      const now = ctx.now();
      const from = now - HISTORY_RANGES[range].spanMs;
      const interval = historyInterval(range);
      // The main account's, as the Portfolio's total is: sub-accounts' own trades are not read.
      const view = historyView(built(profile.id, choice), {
        from,
        at: now,
        account: MAIN_ACCOUNT,
        importProgress: sync.tradeImportProgress(),
        coverage: closeCoverage(ctx.store, profile.id),
        ...(interval
          ? { finer: keptCandles(ctx.store, profile.id, interval, choice.currency) }
          : {}),
      });
      if (view.pending.prices.length > 0) pricesInBackground(profile.id, choice, undefined, true);
      if (interval && view.pending.finer.length > 0) {
        ctx.candles.finer(
          profile.id,
          ctx.session.require().client,
          view.pending.finer,
          from,
          interval,
        );
      }
      return view;
    },
    'ledger.inferred': async () => {
      const { profile } = active();
      const ledger = built(profile.id);
      const needing = movementsNeeding(ledger.entries);
      const reviews = reviewsByEntry(ledger.annotations);
      return [...ledger.inferred]
        .reverse()
        .map((entry) => inferredView(entry, needing, reviews.get(entry.id) ?? null));
    },
    'ledger.annotate': async ({ id, label, costBasis }) => {
      const { profile } = active();
      const entry = built(profile.id).inferred.find((candidate) => candidate.id === id);
      if (!entry)
        throw new AppError('not-found', 'That inferred entry is no longer in the ledger.', 'id');
      if (costBasis && entry.amount.startsWith('-')) {
        throw new AppError('invalid-input', 'Only a credit has a cost basis.', 'costBasis');
      }
      const annotation = {
        ...(label ? { label } : {}),
        ...(costBasis ? { costBasis } : {}),
      };
      if (annotation.costBasis) {
        // The basis must be worth something in the reporting currency at the entry's time.
        const probe = ctx.ledger.ledger(profile.id, choiceOf(profile.id)).prices;
        const price = probe.priceAt(
          annotation.costBasis.currency,
          ctx.settings().quoteAsset,
          entry.time,
        );
        if (price === null || price === undefined) {
          throw new AppError(
            'invalid-input',
            `No market prices ${annotation.costBasis.currency.toUpperCase()} in ${ctx.settings().quoteAsset.toUpperCase()}`,
            'costBasis',
          );
        }
      }
      // What the user writes now about this entry takes the place of a label or cost that moved
      // to it from another interval: they saw both and chose.
      const replaces = movedTo(built(profile.id).annotations, id);
      annotate(ctx.store, profile.id, id, annotation, ctx.now(), factsOf(entry), replaces);
      ctx.emit('data.changed', { profileId: profile.id, kinds: ['portfolio', 'trades'] });
      const ledger = built(profile.id);
      const updated = ledger.inferred.find((candidate) => candidate.id === id);
      const review = reviewsByEntry(ledger.annotations).get(id) ?? null;
      return inferredView(updated ?? entry, movementsNeeding(ledger.entries), review);
    },
    'ledger.review': async ({ id, action }) => {
      const { profile } = active();
      const item = built(profile.id).annotations.find((candidate) => candidate.keptId === id);
      if (!item) throw new AppError('not-found', 'No label or cost is kept under that id.', 'id');
      if (action === 'remove') {
        ctx.store.ledger.removeAnnotation(profile.id, id);
      } else {
        if (!item.entry) {
          throw new AppError(
            'invalid-input',
            'No inferred entry covers it now: remove it, or label the entry it belongs to.',
            'action',
          );
        }
        const facts = factsOf(item.entry);
        if (!ctx.store.ledger.confirmAnnotation(profile.id, id, item.entry.id, facts, ctx.now())) {
          throw new AppError(
            'invalid-input',
            'That entry has a label or cost of its own now: remove this one, or edit that one.',
            'action',
          );
        }
      }
      ctx.emit('data.changed', { profileId: profile.id, kinds: ['portfolio', 'trades'] });
      return { ok: true as const };
    },
    'ledger.settings': async () => {
      const { profile } = ctx.session.require();
      return settingsView(profile.id);
    },
    'ledger.setMethod': async ({ method }) => {
      const { profile } = ctx.session.require();
      ctx.store.settings.set(METHOD_KEY, method, profile.id);
      ctx.emit('data.changed', { profileId: profile.id, kinds: ['portfolio', 'settings'] });
      return settingsView(profile.id);
    },
    'ledger.taxReport': async ({ year, method, longTermAfterDays }) => {
      const { profile } = active();
      const choice = { ...choiceOf(profile.id), ...(method ? { method } : {}) };
      return writeTaxReport(ctx.store, built(profile.id, choice), { year, longTermAfterDays });
    },
    'ledger.koinlyExport': async () => {
      const { profile } = active();
      return writeKoinlyExport(ctx.store, built(profile.id), ctx.now());
    },
    'ledger.openExportsFolder': async () => {
      const folder = exportsFolder(ctx.store);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      openInFileManager(folder, (message) => ctx.log.warn(message));
      return { folder };
    },
  } satisfies HandlerGroup<'ledger'>;
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
