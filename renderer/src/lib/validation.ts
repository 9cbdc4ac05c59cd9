/**
 * Checks a form can make before asking the app: amounts against free balance and the asset's
 * precision. The main process validates again; these give immediate, specific messages.
 */
import { Decimal } from '../../../shared/exact-decimal';
import { DECIMAL_PATTERN } from '../../../shared/decimal';
import { formatStated } from '../../../shared/format';
import type { SubAccountsView } from '../../../shared/types';

export interface AmountCheck {
  ok: boolean;
  message?: string;
}

export function checkAmount(
  input: string,
  options: { free?: string | null; precision?: number; asset?: string; label?: string },
): AmountCheck {
  const label = options.label ?? 'Amount';
  const value = input.trim();
  if (!value) return { ok: false, message: `Enter ${label.toLowerCase()}` };
  if (!DECIMAL_PATTERN.test(value))
    return { ok: false, message: `${label}: digits and one dot only, like 12.5` };
  const decimal = new Decimal(value);
  if (decimal.lte(0)) return { ok: false, message: `${label} must be greater than zero` };
  if (options.precision !== undefined && decimal.decimalPlaces() > options.precision) {
    return {
      ok: false,
      message: `${label} allows at most ${options.precision} digits after the dot`,
    };
  }
  if (
    options.free !== undefined &&
    options.free !== null &&
    decimal.gt(new Decimal(options.free))
  ) {
    const free = options.asset
      ? `${formatStated(options.free)} ${options.asset.toUpperCase()}`
      : formatStated(options.free);
    return { ok: false, message: `${label} is more than the free balance (${free})` };
  }
  return { ok: true };
}

/** Whether a string is a plain e-mail address (the transfer form's accounts). */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** quantity × price, for the order form's total. null when either is not a number. */
export function orderTotal(quantity: string, price: string): string | null {
  if (!DECIMAL_PATTERN.test(quantity.trim()) || !DECIMAL_PATTERN.test(price.trim())) return null;
  return new Decimal(quantity.trim()).times(new Decimal(price.trim())).toString();
}

/**
 * The main account in the transfer form's pickers. The API never names the main account's e-mail
 * (it is learnt from the first transfer), so the form cannot use the e-mail as the option's value.
 */
export const MAIN_ACCOUNT = 'main';

/** Free balance of `asset` in the account `email`: the main account from funds, a sub from its balances. */
export function freeBalance(
  email: string,
  asset: string,
  view: SubAccountsView | undefined,
  mainFree: Map<string, string> | null,
): string | null {
  if (!view) return null;
  if (email === MAIN_ACCOUNT || email === view.parentEmail) {
    // Unknown until the main account's funds have loaded: never show (or check against) a 0.
    return mainFree ? (mainFree.get(asset) ?? '0') : null;
  }
  const account = view.accounts.find((a) => a.email === email);
  if (!account) return null;
  return account.balances.find((b) => b.asset === asset)?.balance ?? '0';
}
