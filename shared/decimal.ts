/**
 * Decimal text: the one definition of what an amount looks like as text, from the wire to the
 * screen. Plain digits with an optional fraction; no exponent, no grouping, no sign unless the
 * signed form is asked for. Arithmetic on amounts uses a decimal library (electron/core/decimal.ts
 * in the main process), never JavaScript numbers; these checks only read the text.
 *
 * It lives in shared/ because the renderer validates what the user types by the same rule the
 * main process enforces; shared/ imports nothing, so both sides can take it.
 */

/** An unsigned decimal: "0", "12", "0.5", "12.50". */
export const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

/** A decimal with an optional leading minus: "-0.5" (changes, P&L). */
export const SIGNED_DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/** The longest amount text accepted from a person or the bridge. */
export const MAX_DECIMAL_LENGTH = 40;

export function isDecimalText(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_PATTERN.test(value);
}

export function isSignedDecimalText(value: unknown): value is string {
  return typeof value === 'string' && SIGNED_DECIMAL_PATTERN.test(value);
}

/** True when an unsigned decimal text is above zero (some digit other than 0). */
export function isPositiveDecimalText(value: string): boolean {
  return isDecimalText(value) && /[1-9]/.test(value);
}

/** Digits after the dot ("1.250" has 3). */
export function fractionDigits(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/**
 * The canonical text of an unsigned decimal: no leading zeros in the integer part, no trailing
 * zeros in the fraction, no lone dot ("007.50" -> "7.5", "0.000" -> "0"). Text only, so it is
 * exact whatever the size.
 */
export function normalizeDecimalText(value: string): string {
  if (!isDecimalText(value)) throw new Error(`Not a decimal: ${value}`);
  const [whole = '', fraction = ''] = value.split('.');
  const trimmedWhole = whole.replace(/^0+(?=\d)/, '');
  const trimmedFraction = fraction.replace(/0+$/, '');
  return trimmedFraction ? `${trimmedWhole}.${trimmedFraction}` : trimmedWhole;
}
