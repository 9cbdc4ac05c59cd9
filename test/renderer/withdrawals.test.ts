import { describe, expect, it } from 'vitest';
import {
  backfillWaitText,
  dateRangeProblem,
  withdrawDestination,
  withdrawKind,
} from '../../renderer/src/lib/withdrawals';

describe('withdraw records on screen', () => {
  it('names the kind of transfer, never the network', () => {
    expect(withdrawKind({ partnerTransfer: false })).toBe('On-chain');
    expect(withdrawKind({ partnerTransfer: true })).toBe('Partner');
  });

  it("shows a partner transfer's receiving account when the record names one", () => {
    expect(withdrawDestination({ partnerTransfer: true, address: 'friend@example.com' })).toEqual({
      kind: 'account',
      text: 'friend@example.com',
    });
    expect(withdrawDestination({ partnerTransfer: true, address: null })).toBeNull();
    expect(withdrawDestination({ partnerTransfer: true, address: '  ' })).toBeNull();
    expect(withdrawDestination({ partnerTransfer: false, address: 'TXabc' })).toEqual({
      kind: 'address',
      text: 'TXabc',
    });
  });

  it('explains a from-date after the to-date instead of finding nothing', () => {
    expect(dateRangeProblem(2000, 1000)).toContain('"From" date is after the "To" date');
    expect(dateRangeProblem(1000, 2000)).toBeNull();
    expect(dateRangeProblem(1000, 1000)).toBeNull();
    expect(dateRangeProblem(undefined, 1000)).toBeNull();
  });
});

describe('backfillWaitText', () => {
  const NOW = Date.UTC(2026, 10, 26, 9);
  it('says the fetch waits for the rate limit and how long, counting down', () => {
    const progress = { state: 'running' as const, waitingUntil: NOW + 41_200 };
    expect(backfillWaitText(progress, NOW)).toBe(
      "Waiting for the exchange's rate limit on the withdraw history (a few requests a minute): the next request goes in about 42 s.",
    );
    expect(backfillWaitText(progress, NOW + 41_000)).toContain('in about 1 s');
    expect(backfillWaitText(progress, NOW + 42_000)).toContain('the next request goes now.');
  });

  it('says nothing when not waiting or not running', () => {
    expect(backfillWaitText({ state: 'running' }, NOW)).toBeNull();
    expect(backfillWaitText({ state: 'done', waitingUntil: NOW + 5000 }, NOW)).toBeNull();
  });
});
