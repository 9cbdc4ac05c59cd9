/** Date inputs of filters to time ranges in ms. */

/** "2026-11-01" (a date input) -> local midnight in ms; end of day when `endOfDay`. */
export function dateInputToMs(value: string, endOfDay: boolean): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match;
  const start = new Date(Number(y), Number(m) - 1, Number(d)).getTime();
  return endOfDay ? start + 86_400_000 - 1 : start;
}
