import type { Clock } from '../core/clock';
import { errors } from './errors';
import type { SandboxEvents } from './events';
import { formatFixed } from './fixed';

export interface Balance {
  free: bigint;
  locked: bigint;
}

/** A balance with whose it is, so the engine can keep it for an order and skip the lookups. */
export interface Holding {
  readonly accountId: number;
  readonly asset: string;
  readonly balance: Balance;
}

/**
 * Free and locked balances of every account, plus the fees the exchange collected. Every change
 * goes through here so that the balance events and the conservation of each asset hold.
 */
export class Ledger {
  private readonly accounts = new Map<number, Map<string, Holding>>();
  /** Fees the exchange collected, per asset. */
  readonly feesCollected = new Map<string, bigint>();
  /** Accounts and assets changed since the last flush (one balance event per account). */
  private readonly dirty = new Map<number, Set<string>>();

  constructor(
    private readonly clock: Clock,
    private readonly events: SandboxEvents,
  ) {}

  balance(accountId: number, asset: string): Balance {
    return this.holding(accountId, asset).balance;
  }

  private holding(accountId: number, asset: string): Holding {
    let assets = this.accounts.get(accountId);
    if (!assets) {
      assets = new Map();
      this.accounts.set(accountId, assets);
    }
    let holding = assets.get(asset);
    if (!holding) {
      holding = { accountId, asset, balance: { free: 0n, locked: 0n } };
      assets.set(asset, holding);
    }
    return holding;
  }

  assetsOf(accountId: number): [string, Balance][] {
    return [...(this.accounts.get(accountId)?.values() ?? [])]
      .map((holding): [string, Balance] => [holding.asset, holding.balance])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  accountIds(): number[] {
    return [...this.accounts.keys()];
  }

  credit(accountId: number, asset: string, amount: bigint): void {
    this.balance(accountId, asset).free += amount;
    this.touch(accountId, asset);
  }

  /** Debits free balance; throws 2002 (transfer wording unless told otherwise) with no change. */
  debit(accountId: number, asset: string, amount: bigint, forOrder = false): void {
    const balance = this.balance(accountId, asset);
    if (balance.free < amount) {
      throw forOrder ? errors.notEnoughForOrder(asset) : errors.notEnoughForTransfer(asset);
    }
    balance.free -= amount;
    this.touch(accountId, asset);
  }

  /** Moves amount from free to locked; throws 2002 with no change. The holding is for release. */
  lock(accountId: number, asset: string, amount: bigint): Holding {
    const holding = this.holding(accountId, asset);
    const balance = holding.balance;
    if (balance.free < amount) throw errors.notEnoughForOrder(asset);
    balance.free -= amount;
    balance.locked += amount;
    this.touch(accountId, asset);
    return holding;
  }

  /** Moves amount of a lock back to free. */
  release(holding: Holding, amount: bigint): void {
    if (amount === 0n) return;
    holding.balance.locked -= amount;
    holding.balance.free += amount;
    this.touch(holding.accountId, holding.asset);
  }

  /**
   * One side of a fill: `paid` leaves the payer's lock (and `released` more of it goes back to
   * free), and the proceeds minus the fee arrive in `asset`, the fee booked as collected.
   */
  settle(
    payer: Holding,
    paid: bigint,
    released: bigint,
    asset: string,
    gross: bigint,
    fee: bigint,
  ): void {
    const paying = payer.balance;
    paying.locked -= paid;
    if (released !== 0n) {
      paying.locked -= released;
      paying.free += released;
    }
    this.touch(payer.accountId, payer.asset);
    this.balance(payer.accountId, asset).free += gross - fee;
    if (fee !== 0n) this.feesCollected.set(asset, (this.feesCollected.get(asset) ?? 0n) + fee);
    this.touch(payer.accountId, asset);
  }

  private touch(accountId: number, asset: string): void {
    if (this.events.listenerCount('balance') === 0) return;
    let assets = this.dirty.get(accountId);
    if (!assets) {
      assets = new Set();
      this.dirty.set(accountId, assets);
    }
    assets.add(asset);
  }

  /** Emits one balance event per changed account; called at the end of each operation. */
  flush(): void {
    if (this.dirty.size === 0) return;
    const time = this.clock.now();
    const pending = [...this.dirty];
    this.dirty.clear();
    for (const [accountId, assets] of pending) {
      const balances = [...assets].sort().map((asset) => {
        const balance = this.balance(accountId, asset);
        return { asset, free: formatFixed(balance.free), locked: formatFixed(balance.locked) };
      });
      this.events.emit('balance', { accountId, time, balances });
    }
  }
}
