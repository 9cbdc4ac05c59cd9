/**
 * The math of a fixed-row-height virtualized list: which rows are on screen, and which data pages
 * must be loaded for them. Kept pure so it is unit-tested apart from the DOM.
 */

export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  total: number;
  /** Rows rendered beyond each edge so a quick scroll shows no blank band. */
  overscan: number;
}

export interface RowWindow {
  /** First rendered row index (inclusive). */
  start: number;
  /** Last rendered row index + 1 (exclusive). */
  end: number;
  /** Pixel offset of row `start` from the top of the list. */
  offsetTop: number;
  /** Height of the whole list in pixels. */
  totalHeight: number;
}

export function visibleWindow(input: WindowInput): RowWindow {
  const { rowHeight, overscan } = input;
  if (!(rowHeight > 0)) throw new Error('rowHeight must be a positive number of pixels');
  const total = Math.max(0, Math.floor(input.total));
  const totalHeight = total * rowHeight;
  if (total === 0) return { start: 0, end: 0, offsetTop: 0, totalHeight };
  const maxScroll = Math.max(0, totalHeight - input.viewportHeight);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), maxScroll);
  const firstVisible = Math.floor(scrollTop / rowHeight);
  const visibleCount = Math.ceil(Math.max(0, input.viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, firstVisible - overscan);
  const end = Math.min(total, firstVisible + visibleCount + overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

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

/** The scrollTop that brings row `index` into view with the least movement. */
export function scrollTopForRow(
  index: number,
  currentScrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): number {
  const rowTop = index * rowHeight;
  const rowBottom = rowTop + rowHeight;
  if (rowTop < currentScrollTop) return rowTop;
  if (rowBottom > currentScrollTop + viewportHeight) return rowBottom - viewportHeight;
  return currentScrollTop;
}

/**
 * A cache of loaded pages bounded in size: the pages farthest from the current position are
 * dropped first, so scrolling through 100,000 rows keeps memory flat.
 */
export class PageCache<T> {
  private readonly pages = new Map<number, T[]>();
  constructor(private readonly maxPages: number) {}

  get(page: number): T[] | undefined {
    return this.pages.get(page);
  }

  has(page: number): boolean {
    return this.pages.has(page);
  }

  set(page: number, rows: T[], nearPage: number): void {
    this.pages.set(page, rows);
    if (this.pages.size <= this.maxPages) return;
    const byDistance = [...this.pages.keys()].sort(
      (a, b) => Math.abs(b - nearPage) - Math.abs(a - nearPage),
    );
    for (const farPage of byDistance.slice(0, this.pages.size - this.maxPages)) {
      this.pages.delete(farPage);
    }
  }

  row(index: number, pageSize: number): T | undefined {
    return this.pages.get(Math.floor(index / pageSize))?.[index % pageSize];
  }

  clear(): void {
    this.pages.clear();
  }

  get size(): number {
    return this.pages.size;
  }
}
