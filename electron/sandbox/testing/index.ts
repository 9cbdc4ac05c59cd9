/**
 * The sandbox for tests, benches and the sandbox CLI: startSandbox with an admin surface (create
 * accounts and keys, credit balances, place orders dated in the past, seed and settle withdrawals,
 * inject faults and clock skew, drop stream connections). The product (demo mode) never imports
 * this module.
 */
import { SystemClock } from '../../core/clock';
import type { SecurityType } from '../accounts';
import { formatFixed, parseFixed } from '../fixed';
import { launchSandbox, type Sandbox, type SandboxOptions } from '../index';
import { FaultInjector, type Fault, type FaultMatch } from './faults';

export type { SandboxOptions, WorldInfo } from '../index';

export interface SandboxAdmin {
  createAccount(input: { email: string; parentEmail?: string }): {
    accountId: number;
    email: string;
  };
  createApiKey(
    email: string,
    opts?: {
      canTrade?: boolean;
      allowedSecurityTypes?: ('MARKET_DATA' | 'TRADE' | 'USER_DATA')[];
      ipAllowList?: string[];
    },
  ): { apiKey: string; secretKey: string };
  revokeApiKey(apiKey: string): void;
  credit(email: string, asset: string, amount: string): void;
  balances(email: string): { asset: string; free: string; locked: string }[];
  seedWithdrawHistory(
    email: string,
    input: { count: number; fromMs: number; toMs: number; seed?: number },
  ): number;
  requestWithdrawal(
    email: string,
    input: {
      coin: string;
      network: string;
      amount: string;
      address: string;
      withdrawOrderId?: string;
    },
  ): { id: string };
  settleWithdrawal(id: string, outcome: 'success' | 'failed'): void;
  /**
   * Places a limit order dated `time` (a history in the past, as the demo world seeds its own):
   * it trades against the book as it is now, and its fills carry that time.
   */
  placeOrderAt(
    email: string,
    time: number,
    order: { symbol: string; side: 'buy' | 'sell'; quantity: string; price: string },
  ): void;
  setRateLimits(enabled: boolean): void;
  faults: {
    inject(match: FaultMatch, fault: Fault, times?: number): void;
    clear(): void;
    /** Requests of a path (and method, if given) the sandbox has received so far. */
    count(match: FaultMatch): number;
    /** Shifts the exchange's clock (the default system clock only; move a ManualClock instead). */
    skewClock(ms: number): void;
  };
  dropStreamConnections(): void;
  streamConnectionCount(): number;
  /** The streams each open stream connection carries (sorted), one list per connection. */
  streamsByConnection(): string[][];
}

/** A sandbox with its admin surface. */
export interface TestSandbox extends Sandbox {
  admin: SandboxAdmin;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const faults = new FaultInjector();
  const { sandbox, parts } = await launchSandbox(options, { interceptor: faults });
  const { clock, engine, accounts, ledger, wallet, limiter, streams } = parts;
  const accountOf = (email: string) => accounts.require(email);
  const admin: SandboxAdmin = {
    createAccount: (input) => {
      const account = accounts.createAccount(input);
      return { accountId: account.id, email: account.email };
    },
    createApiKey: (email, opts = {}) => {
      const key = accounts.createApiKey(accountOf(email).id, {
        ...opts,
        allowedSecurityTypes: opts.allowedSecurityTypes as SecurityType[] | undefined,
      });
      return { apiKey: key.apiKey, secretKey: key.secretKey };
    },
    revokeApiKey: (apiKey) => accounts.revokeApiKey(apiKey),
    credit: (email, asset, amount) => {
      const value = parseFixed(amount);
      if (value === undefined || value <= 0n) throw new Error(`not a positive amount: ${amount}`);
      ledger.credit(accountOf(email).id, asset.toLowerCase(), value);
      ledger.flush();
    },
    balances: (email) =>
      ledger.assetsOf(accountOf(email).id).map(([asset, balance]) => ({
        asset,
        free: formatFixed(balance.free),
        locked: formatFixed(balance.locked),
      })),
    seedWithdrawHistory: (email, input) => wallet.seedWithdrawHistory(accountOf(email).id, input),
    requestWithdrawal: (email, input) => wallet.requestWithdrawal(accountOf(email).id, input),
    settleWithdrawal: (id, outcome) => wallet.settleWithdrawal(id, outcome),
    placeOrderAt: (email, time, order) => {
      const accountId = accountOf(email).id;
      engine.atTime(time, () => engine.placeOrder(accountId, { ...order, type: 'limit' }));
      ledger.flush();
    },
    setRateLimits: (enabled) => {
      limiter.enabled = enabled;
    },
    faults: {
      inject: (match, fault, times) => faults.inject(match, fault, times),
      clear: () => faults.clear(),
      count: (match) => faults.count(match),
      skewClock: (ms) => {
        if (!(clock instanceof SystemClock)) {
          throw new Error('skewClock needs the default SystemClock; move a ManualClock directly');
        }
        clock.skewMs = ms;
      },
    },
    dropStreamConnections: () => streams.dropAll(),
    streamConnectionCount: () => streams.connectionCount(),
    streamsByConnection: () => streams.streamsByConnection(),
  };
  return Object.assign(sandbox, { admin });
}
