/** deposits.coins (cached coin list with networks) and deposits.address (fetched once, cached). */
import type { CoinView } from '../../shared/types';
import type { CoinInfo } from '../exchange/wire';
import type { ApiContext, HandlerGroup } from './context';

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
    'deposits.address': async ({ coin, network }) =>
      ctx.session.require().sync.depositAddress(coin, network),
  } satisfies HandlerGroup<'deposits'>;
}
