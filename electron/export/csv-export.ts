/** The store-backed CSV export: the view's filters, every matching row (not just one page). */
import type { Store } from '../store';
import { WITHDRAW_STATUS_CODES, WITHDRAW_STATUSES } from '../../shared/market';
import type { CsvExport } from '../../shared/types';
import type { OwnTradeQuery, SubTransferQuery, WithdrawQuery } from '../store/types';
import { buildCsvExport, type ExportInput, type ExportWithdrawal } from './csv';
import type { SyncStorePort } from '../sync/port';
import { storePort } from '../sync/store-port';

export { toCsv, type CsvDelimiter, type CsvCell } from './csv';

/** A code this version does not know is written as it came: the export shows what is stored. */
function statusName(code: number): string {
  return WITHDRAW_STATUSES.find((status) => WITHDRAW_STATUS_CODES[status] === code) ?? String(code);
}

const PAGE = 1000;

/** Reads every page of a query (the store caps a page at 1000 rows). */
function allPages<T>(read: (offset: number) => { rows: T[]; total: number }): T[] {
  const rows: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = read(offset);
    rows.push(...page.rows);
    if (page.rows.length < PAGE || rows.length >= page.total) return rows;
  }
}

export function withdrawQuery(
  filter: Extract<ExportInput, { kind: 'withdrawals' }>['filter'],
): WithdrawQuery {
  const query: WithdrawQuery = { sort: 'time', direction: 'desc' };
  if (filter.coin !== undefined) query.coin = filter.coin;
  if (filter.transferType !== undefined) query.type = filter.transferType;
  if (filter.status !== undefined) query.status = WITHDRAW_STATUS_CODES[filter.status];
  if (filter.startTime !== undefined) query.from = filter.startTime;
  if (filter.endTime !== undefined) query.to = filter.endTime;
  if (filter.search !== undefined && filter.search !== '') query.search = filter.search;
  return query;
}

export function exportCsv(
  store: Store | SyncStorePort,
  profileId: string,
  input: ExportInput,
  now: number = Date.now(),
): CsvExport {
  const port = 'replaceFunds' in store ? store : storePort(store);
  return buildCsvExport(
    {
      withdrawals: (i) => {
        if (i.kind !== 'withdrawals') return [];
        const query = withdrawQuery(i.filter);
        return allPages((offset) =>
          port.withdrawals(profileId, { ...query, offset, limit: PAGE }),
        ).map((w): ExportWithdrawal => ({
          ...w,
          status: statusName(w.status),
        }));
      },
      trades: (i) => {
        if (i.kind !== 'trades') return [];
        const query: OwnTradeQuery = { direction: 'desc' };
        if (i.filter.symbol !== undefined) query.symbol = i.filter.symbol;
        if (i.filter.side !== undefined) query.side = i.filter.side;
        if (i.filter.startTime !== undefined) query.from = i.filter.startTime;
        if (i.filter.endTime !== undefined) query.to = i.filter.endTime;
        return allPages((offset) => port.trades(profileId, { ...query, offset, limit: PAGE }));
      },
      transfers: (i) => {
        if (i.kind !== 'transfers') return [];
        const query: SubTransferQuery = { direction: 'desc' };
        if (i.filter.asset !== undefined) query.asset = i.filter.asset;
        return allPages((offset) => port.transfers(profileId, { ...query, offset, limit: PAGE }));
      },
    },
    input,
    now,
  );
}
