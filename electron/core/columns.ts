/**
 * Columns of numbers kept in typed arrays (a ledger build's trades, the reconciliation's
 * movements): their bytes sit outside the collected heap, so no collection copies them.
 */

type Column = Float64Array | Uint32Array | Uint16Array | Uint8Array;

/** A column of the same kind with room for `size` values, those of `column` copied in. */
export function grown<T extends Column>(column: T, size: number): T {
  const next = new (column.constructor as new (length: number) => T)(size);
  next.set(column);
  return next;
}
