/**
 * deposits.coins (cached coin list with networks), deposits.address (fetched once, cached; a new
 * one waits for the exchange's one-a-minute slot), deposits.pending (what waits, and until when)
 * and deposits.cancel (a queued request leaves the queue before it reaches the exchange).
 */
import type { CoinView } from '../../shared/types';
import type { CoinInfo } from '../exchange/wire';
import { RequestCanceledError } from '../sync/pacing';
import type { ApiContext, HandlerGroup } from './context';
import { AppError } from './errors';

export function toCoinView(info: CoinInfo): CoinView {
  return {
    coin: info.coin,
    name: info.name,
    networks: info.networkList.map((n) => ({
      network: n.network,
      name: n.name,
      isDefault: n.isDefault,
      depositEnable: n.depositEnable,
      withdrawEnable: n.withdrawEnable,
      memoRequired: n.memoRequired,
      confirmations: n.confirmations,
      withdrawFee: n.withdrawFee,
      withdrawMin: n.withdrawMin,
      withdrawMax: n.withdrawMax,
    })),
  };
}

export function depositsHandlers(ctx: ApiContext) {
  return {
    'deposits.coins': async () => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['coins']);
      const rows = ctx.store.wallet.listCoins<CoinInfo>(profile.id);
      return {
        coins: rows.map((row) => toCoinView(row.info)),
        asOf: rows.length === 0 ? null : Math.max(...rows.map((row) => row.fetchedAt)),
      };
    },
    'deposits.address': async ({ coin, network }) => {
      try {
        return await ctx.session.require().sync.depositAddress(coin, network);
      } catch (error) {
        if (!(error instanceof RequestCanceledError)) throw error;
        throw new AppError(
          'not-found',
          `The request for the ${coin.toUpperCase()} address on ${network} was canceled before it ` +
            'reached the exchange.',
        );
      }
    },
    'deposits.pending': async () => ctx.session.require().sync.pendingDepositAddresses(),
    'deposits.cancel': async ({ coin, network }) => ({
      canceled: ctx.session.require().sync.cancelDepositAddress(coin, network),
    }),
  } satisfies HandlerGroup<'deposits'>;
}
