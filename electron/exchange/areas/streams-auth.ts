/** The auth key that private stream subscriptions carry. */
import type { Requests } from '../requests';
import { authTokenSchema } from '../wire';

export function streamsAuthArea(requests: Requests) {
  return {
    createAuthToken: () => requests.post('createAuthToken', {}, authTokenSchema),
  };
}
