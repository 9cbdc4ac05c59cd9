/** withdrawals.*: the cached withdraw history (filtered, sorted, paged) and its backfill. */
import { WITHDRAW_STATUS_CODES, withdrawStatusOf } from '../../shared/market';
import type { WithdrawView } from '../../shared/types';
import type { WithdrawRow } from '../store/types';
import type { ApiContext, HandlerGroup } from './context';

export function toWithdrawView(row: WithdrawRow): WithdrawView {
  return {
    id: row.id,
    coin: row.coin,
    amount: row.amount,
    transactionFee: row.transactionFee,
    // A code this version does not know is shown as pending: not final, worth another look.
    status: withdrawStatusOf(row.status),
    partnerTransfer: row.partnerTransfer,
    address: row.address,
    network: row.network,
    txId: row.txId,
    withdrawOrderId: row.withdrawOrderId,
    failureInfo: row.failureInfo,
    createdAt: row.createdAt,
    lastUpdated: row.lastUpdated,
  };
}

export function withdrawalsHandlers(ctx: ApiContext) {
  return {
    'withdrawals.list': async ({ filter, sort, offset, limit }) => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['withdrawals']);
      const page = ctx.store.withdraws.page(profile.id, {
        coin: filter.coin,
        type: filter.transferType,
        status: filter.status === undefined ? undefined : WITHDRAW_STATUS_CODES[filter.status],
        from: filter.startTime,
        to: filter.endTime,
        search: filter.search || undefined,
        sort: sort.field,
        direction: sort.dir,
        offset,
        limit,
      });
      return {
        rows: page.rows.map(toWithdrawView),
        total: page.total,
        asOf: sync.jobStatus('withdrawals').lastSuccessAt,
      };
    },
    'withdrawals.coins': async () => {
      const { profile } = ctx.session.require();
      return ctx.store.withdraws.coins(profile.id);
    },
    'withdrawals.backfill': async ({ since }) => {
      const { sync } = ctx.session.require();
      return sync.backfillWithdrawals(since === undefined ? {} : { since });
    },
    'withdrawals.backfillStatus': async () => ctx.session.require().sync.backfillStatus(),
  } satisfies HandlerGroup<'withdrawals'>;
}
