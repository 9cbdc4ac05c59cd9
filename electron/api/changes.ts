/**
 * Which answers a change makes stale, named by the main process, which knows what it wrote: each
 * read of the contract says here what its answer is computed from, and a `data.changed` naming
 * some kinds of data carries the reads computed from any of them (`queries`). The page marks
 * exactly those stale. Every method is listed (the type asks for all of them), so a new read
 * cannot be forgotten; calls that change something or act read nothing here.
 */
import type { EventPayloads, MethodName } from '../../shared/contract';
import type { DataKind } from '../../shared/types';

/** What the ledger's figures are built from (trades, movements, balances, prices, settings). */
const ledgerFigures: readonly DataKind[] = [
  'trades',
  'withdrawals',
  'subAccounts',
  'funds',
  'prices',
  'portfolio',
  'settings',
];

export const readsOf: Readonly<Record<MethodName, readonly DataKind[]>> = {
  'app.status': ['profiles', 'status', 'settings'],
  'profiles.list': ['profiles'],
  'profiles.add': [],
  'profiles.update': [],
  'profiles.remove': [],
  'profiles.activate': [],
  'profiles.enterDemo': [],
  'profiles.orphanedKeys': ['profiles'],
  'profiles.reattachKey': [],
  'profiles.deleteOrphanedKey': [],
  'profiles.removed': ['profiles'],
  'profiles.restore': [],
  'portfolio.summary': ['funds', 'prices', 'portfolio', 'subAccounts', 'settings'],
  'funds.list': ['funds', 'prices', 'settings'],
  'funds.refresh': [],
  'account.info': ['profiles', 'funds'],
  'withdrawals.list': ['withdrawals'],
  'withdrawals.coins': ['withdrawals'],
  'withdrawals.backfill': [],
  'withdrawals.backfillStatus': ['withdrawals'],
  'deposits.coins': ['deposits'],
  'deposits.address': [],
  'deposits.pending': ['deposits'],
  'deposits.cancel': [],
  'subAccounts.list': ['subAccounts', 'prices', 'settings'],
  'subAccounts.refresh': [],
  'subAccounts.transfer': [],
  'subAccounts.history': ['subAccounts'],
  'subAccounts.link': [],
  'subAccounts.unlink': [],
  'orders.open': ['orders'],
  'orders.history': ['orders'],
  'orders.trades': ['trades'],
  'orders.test': [],
  'orders.place': [],
  'orders.cancel': [],
  'orders.cancelAll': [],
  // The markets' rules change only with the exchange; read again on reconnect (the page).
  'market.symbols': [],
  'market.tickers': ['prices'],
  'market.klines': ['prices'],
  'market.depth': [],
  'market.trades': [],
  'market.watch': [],
  'market.unwatch': [],
  'settings.get': ['settings'],
  'settings.update': [],
  'export.csv': [],
  'journal.list': ['journal'],
  'journal.check': [],
  'journal.finish': [],
  'journal.resolve': [],
  // The lock's state travels in lock.changed.
  'lock.status': [],
  'lock.unlock': [],
  'lock.lock': [],
  'lock.setPassword': [],
  'lock.confirm': [],
  'lock.removePassword': [],
  'lock.setIdle': [],
  'lock.activity': [],
  'lock.reset': [],
  'alerts.list': ['alerts'],
  'alerts.create': [],
  'alerts.update': [],
  'alerts.setPaused': [],
  'alerts.remove': [],
  'activity.feed': ['notifications'],
  'activity.notifications': ['notifications'],
  'activity.markNotificationsRead': [],
  'ledger.summary': ledgerFigures,
  'ledger.netWorth': ledgerFigures,
  'ledger.asset': ledgerFigures,
  'ledger.history': ledgerFigures,
  // Inferred entries reconcile balances with movements; prices and settings do not move them.
  'ledger.inferred': ['trades', 'withdrawals', 'subAccounts', 'funds', 'portfolio'],
  'ledger.annotate': [],
  'ledger.review': [],
  'ledger.settings': ['settings'],
  'ledger.setMethod': [],
  'ledger.taxReport': [],
  'ledger.koinlyExport': [],
  'ledger.openExportsFolder': [],
  'ledger.allProfiles': [...ledgerFigures, 'profiles'],
  'ledger.allProfilesHistory': [...ledgerFigures, 'profiles'],
};

const readers = new Map<DataKind, MethodName[]>();
for (const [method, kinds] of Object.entries(readsOf) as [MethodName, readonly DataKind[]][]) {
  for (const kind of kinds) readers.set(kind, [...(readers.get(kind) ?? []), method]);
}

/**
 * The reads a change of `kinds` makes stale, each once. `answered`: the read whose own answer
 * made the change (market.tickers stores the prices it answers with); its answer is the new data,
 * so it is not among them: a read never makes itself stale.
 */
export function queriesChangedBy(kinds: readonly DataKind[], answered?: MethodName): MethodName[] {
  const methods = new Set(kinds.flatMap((kind) => readers.get(kind) ?? []));
  if (answered) methods.delete(answered);
  return [...methods];
}

/** The payload the page is sent: the kinds as emitted, with the reads they make stale. */
export function namedChange(change: EventPayloads['data.changed']): EventPayloads['data.changed'] {
  const { answered, ...rest } = change;
  return { ...rest, queries: queriesChangedBy(change.kinds, answered) };
}
