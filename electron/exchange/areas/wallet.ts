/** Coins and their networks, withdraw records and deposit addresses. */
import { validate, type InputOf } from '../inputs';
import type { Requests } from '../requests';
import { coinInfoListSchema, depositAddressSchema, withdrawRecordListSchema } from '../wire';

export function walletArea(requests: Requests) {
  return {
    coins: () => requests.get('coins', {}, coinInfoListSchema),
    withdraws: async (p?: InputOf<'withdraws'>) => {
      const v = validate('withdraws', p, 'wallet.withdraws') ?? {};
      return requests.get('withdraws', v, withdrawRecordListSchema);
    },
    depositAddress: async (p: InputOf<'depositAddress'>) => {
      const v = validate('depositAddress', p, 'wallet.depositAddress');
      return requests.get('depositAddress', v, depositAddressSchema);
    },
  };
}
