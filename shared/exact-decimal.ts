/**
 * The one decimal.js of the project (the ledger keeps its own clone, with its own rounding of
 * splits). decimal.js rounds the result of every operation to `precision` significant digits: 20
 * by default, so "12345678901234.123456789" (23 digits, decimal text the exchange and the forms
 * accept) plus 1 came out as 12345678901235.123457. Here the precision has room for a product of
 * four amounts of the longest accepted text (quantity × price × rate, and more), so sums,
 * differences, products and remainders of amounts never round; only a division does, far below
 * any digit shown. The exponent limits keep toString() in plain digits, never "1e-8".
 *
 * Import Decimal from here, never from 'decimal.js' (lint enforces it): a value made by another
 * constructor does its arithmetic at that constructor's precision.
 */
import DecimalJs from 'decimal.js';
import { MAX_DECIMAL_LENGTH } from './decimal';

export const Decimal = DecimalJs.clone({
  precision: 4 * MAX_DECIMAL_LENGTH,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

export type Decimal = DecimalJs;
