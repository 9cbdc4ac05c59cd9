/**
 * Which of the main account's balance changes a transfer made from this app caused. The transfer
 * tells its own outcome once ("Transfer completed"); its balance changes on the main account are
 * not told again as balance changes, and every other change still is.
 *
 * A transfer claims the changes it will cause on the main account, in order (the money journal
 * knows its asset, amount and accounts): −amount for a move out of the main account, +amount into
 * it, and +amount then −amount for a sub-to-sub move, which passes through the main account. The
 * stream states balances, not changes, so each claim follows the asset's total (free + locked)
 * from the balance it started from: an update whose change equals the claim's next changes (one,
 * or several in a row when updates were missed) is the transfer's and uses them up; any other
 * change (a deposit, a fill) is not, however close in time. A claim ends when its changes have
 * all come, when the transfer's answer says the rest were not made, or, once answered, at a
 * reconnect of the stream (updates sent while it was down never come).
 */
import { Decimal } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';

interface Claim {
  asset: string;
  /** The changes still to come, in order, each with its place among the transfer's steps. */
  changes: { amount: Decimal; step: number }[];
  /** The asset's total as last seen by this claim: where the next change starts from. */
  total: Decimal;
  answered: boolean;
}

/** One transfer's claim, as its caller holds it. */
export interface TransferClaim {
  /**
   * The transfer answered; `made[i]` says whether the change of its i-th step can have happened
   * (false for a step not made, or never sent). A claim left with nothing to wait for ends.
   */
  settle(made: readonly boolean[]): void;
  /** The transfer moved nothing (it failed outright): the claim ends. */
  drop(): void;
}

export class TransferClaims {
  private readonly claims = new Set<Claim>();

  /**
   * A transfer of `asset` about to be sent, with the main account's total of it now (`from`)
   * and the changes it will make to it, in order.
   */
  claim(asset: string, from: Decimal | string, changes: readonly string[]): TransferClaim {
    const claim: Claim = {
      asset: assetKey(asset),
      changes: changes.map((change, step) => ({ amount: new Decimal(change), step })),
      total: new Decimal(from),
      answered: false,
    };
    if (claim.changes.length > 0) this.claims.add(claim);
    return {
      settle: (made) => {
        claim.answered = true;
        claim.changes = claim.changes.filter((change) => made[change.step] !== false);
        if (claim.changes.length === 0) this.claims.delete(claim);
      },
      drop: () => {
        this.claims.delete(claim);
      },
    };
  }

  /**
   * A balance update of the main account from the stream: the asset's total now. True when the
   * change is a claiming transfer's own (and so not to be told as a balance change).
   */
  observe(asset: string, total: Decimal | string): boolean {
    const key = assetKey(asset);
    const now = new Decimal(total);
    let owned = false;
    for (const claim of this.claims) {
      if (claim.asset !== key) continue;
      const change = now.minus(claim.total);
      claim.total = now;
      if (owned || change.isZero()) continue;
      const used = leadingChangesSumming(claim.changes, change);
      if (used === 0) continue;
      owned = true;
      claim.changes = claim.changes.slice(used);
      if (claim.changes.length === 0) this.claims.delete(claim);
    }
    return owned;
  }

  /**
   * The stream reconnected: the updates sent while it was down never come, so an answered
   * transfer's claim could wait for ever and take someone else's change later.
   */
  reconnected(): void {
    for (const claim of this.claims) if (claim.answered) this.claims.delete(claim);
  }

  /** How many claims are open (for tests). */
  get size(): number {
    return this.claims.size;
  }
}

/** How many of `changes`, from the first, add up to `change`; 0 when no run of them does. */
function leadingChangesSumming(changes: readonly { amount: Decimal }[], change: Decimal): number {
  let sum = new Decimal(0);
  for (let i = 0; i < changes.length; i++) {
    sum = sum.plus(changes[i]!.amount);
    if (sum.eq(change)) return i + 1;
  }
  return 0;
}
