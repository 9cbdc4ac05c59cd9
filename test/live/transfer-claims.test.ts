/**
 * The rule that tells a transfer's own balance changes from any other (live/transfer-claims.ts):
 * by the change each stream update makes to the asset's total, never by when it comes.
 */
import { describe, expect, it } from 'vitest';
import { TransferClaims } from '../../electron/live/transfer-claims';

describe('TransferClaims', () => {
  it("takes a transfer's own change, and tells a deposit of the same asset beside it", () => {
    const claims = new TransferClaims();
    const claim = claims.claim('USDT', '100', ['-1']);
    // A deposit from outside arrives first: not the transfer's.
    expect(claims.observe('usdt', '101')).toBe(false);
    // The transfer's −1, from where the deposit left the balance.
    expect(claims.observe('usdt', '100')).toBe(true);
    expect(claims.size).toBe(0);
    // Any change after it is told, even one of the same amount.
    expect(claims.observe('usdt', '99')).toBe(false);
    claim.settle([true]);
    expect(claims.size).toBe(0);
  });

  it('takes both legs of a sub-to-sub move through the main account, in and out', () => {
    const claims = new TransferClaims();
    claims.claim('usdt', '50.5', ['2.25', '-2.25']);
    expect(claims.observe('usdt', '52.75')).toBe(true);
    // Another asset is none of its business.
    expect(claims.observe('btc', '1')).toBe(false);
    // A deposit of the same amount as the transfer between its legs is still a deposit:
    // the claim's next change is −2.25, not +2.25.
    expect(claims.observe('usdt', '55')).toBe(false);
    expect(claims.observe('usdt', '52.75')).toBe(true);
    expect(claims.size).toBe(0);
  });

  it('takes several of its changes at once when updates in between were missed', () => {
    const claims = new TransferClaims();
    claims.claim('eth', '1', ['0.5', '-0.2']);
    expect(claims.observe('eth', '1.3')).toBe(true);
    expect(claims.size).toBe(0);
  });

  it('takes nothing for an update that changes nothing', () => {
    const claims = new TransferClaims();
    claims.claim('usdt', '10', ['3', '-3']);
    expect(claims.observe('usdt', '10')).toBe(false);
    expect(claims.size).toBe(1);
    expect(claims.observe('usdt', '13')).toBe(true);
    expect(claims.observe('usdt', '10')).toBe(true);
    expect(claims.size).toBe(0);
  });

  it('ends with the answer: a step not made takes nothing, a dropped transfer nothing at all', () => {
    const claims = new TransferClaims();
    const stopped = claims.claim('usdt', '20', ['5', '-5']);
    expect(claims.observe('usdt', '25')).toBe(true);
    // The second leg was not made: the funds stay in the main account, and a later −5 (a
    // withdrawal) is the user's to hear of.
    stopped.settle([true, false]);
    expect(claims.size).toBe(0);
    expect(claims.observe('usdt', '20')).toBe(false);

    const failed = claims.claim('usdt', '20', ['-5']);
    failed.drop();
    expect(claims.observe('usdt', '15')).toBe(false);
  });

  it('forgets an answered claim at a reconnect, whose change may have been sent meanwhile', () => {
    const claims = new TransferClaims();
    const answered = claims.claim('usdt', '20', ['-5']);
    const running = claims.claim('btc', '1', ['0.1']);
    answered.settle([true]);
    claims.reconnected();
    expect(claims.size).toBe(1);
    expect(claims.observe('usdt', '15')).toBe(false);
    expect(claims.observe('btc', '1.1')).toBe(true);
    running.settle([true]);
    expect(claims.size).toBe(0);
  });

  it('lets each of two transfers of one asset take its own change', () => {
    const claims = new TransferClaims();
    claims.claim('usdt', '100', ['-1']);
    claims.claim('usdt', '100', ['-2']);
    expect(claims.observe('usdt', '98')).toBe(true);
    expect(claims.observe('usdt', '97')).toBe(true);
    expect(claims.size).toBe(0);
  });
});
