import { describe, expect, it } from 'vitest';
import {
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
