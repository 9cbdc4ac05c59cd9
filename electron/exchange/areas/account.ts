/** The account's permissions and its funds. */
import type { Requests } from '../requests';
import { accountInfoSchema, fundListSchema } from '../wire';

export function accountArea(requests: Requests) {
  return {
    info: () => requests.get('account', {}, accountInfoSchema),
    funds: () => requests.get('funds', {}, fundListSchema),
  };
}
