/** Paging of a long list read in fixed-size pages: which pages hold a range of rows. */

/** Page indexes (of `pageSize` rows) that hold rows [start, end). */
export function pagesForRange(start: number, end: number, pageSize: number): number[] {
  if (!(pageSize > 0)) throw new Error('pageSize must be positive');
  if (end <= start) return [];
  const first = Math.floor(start / pageSize);
  const last = Math.floor((end - 1) / pageSize);
  const pages: number[] = [];
  for (let page = first; page <= last; page++) pages.push(page);
  return pages;
}
