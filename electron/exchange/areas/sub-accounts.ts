/**
 * Sub-accounts and transfers between them and the main account. A transfer whose answer is lost
 * is looked up in the transfer history (records that were not there before it was sent, with the
 * same asset, amount and accounts) before the caller hears anything.
 */
import { Decimal } from '../../../shared/exact-decimal';
import { sameAsset } from '../../core/market';
import { validate, type InputOf } from '../inputs';
import { mayHaveHappened, notApplied, RECONCILE_TIME_SLACK_MS, type Requests } from '../requests';
import type { SentRequest } from '../rest';
import {
  subAccountRecordListSchema,
  subTransferRecordListSchema,
  subTransferResultSchema,
  type SubTransferResult,
} from '../wire';

/** E-mail addresses are compared without regard to case, as the exchange treats them. */
const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function subAccountsArea(requests: Requests) {
  const transferHistory = () => requests.get('subTransferHistory', {}, subTransferRecordListSchema);

  const transfer = async (p: InputOf<'transfer'>): Promise<SubTransferResult> => {
    const v = validate('transfer', p, 'subAccounts.transfer');
    // The snapshot comes first, so an identical earlier transfer is never taken for this one.
    const before = await transferHistory();
    const known = new Set(before.map((r) => r.txnId));
    const sent: SentRequest = {};
    try {
      return await requests.post('subTransfer', v, subTransferResultSchema, sent);
    } catch (error) {
      if (!mayHaveHappened(error)) throw error;
      const what = `transfer of ${v.amount} ${v.currency}`;
      const found = await requests.reconcile(error, sent, what, async () => {
        const history = await transferHistory();
        const sentAt = (sent.timestamp ?? requests.serverNow()) - RECONCILE_TIME_SLACK_MS;
        return history
          .filter(
            (r) =>
              !known.has(r.txnId) &&
              sameAsset(r.asset, v.currency) &&
              sameEmail(r.from, v.fromEmail) &&
              sameEmail(r.to, v.toEmail) &&
              new Decimal(r.qty).eq(v.amount) &&
              r.time >= sentAt,
          )
          .sort((a, b) => a.time - b.time)[0];
      });
      if (found) return { status: found.status, txnId: found.txnId };
      throw notApplied(error, `The ${what} was not made`);
    }
  };

  return {
    transfer,
    transferHistory,
    accounts: () => requests.get('subAccounts', {}, subAccountRecordListSchema),
  };
}
