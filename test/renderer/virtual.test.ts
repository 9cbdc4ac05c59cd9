import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PageCache,
  pagesForRange,
  scrollTopForRow,
  visibleWindow,
} from '../../renderer/src/lib/virtual';

describe('visibleWindow', () => {
  it('renders the visible rows plus overscan at the top', () => {
    expect(
      visibleWindow({
        scrollTop: 0,
        viewportHeight: 400,
        rowHeight: 40,
        total: 100_000,
        overscan: 5,
      }),
    ).toEqual({
      start: 0,
      end: 16,
      offsetTop: 0,
      totalHeight: 4_000_000,
    });
  });

  it('renders the window in the middle of 100,000 rows', () => {
    const w = visibleWindow({
      scrollTop: 2_000_000,
      viewportHeight: 400,
      rowHeight: 40,
      total: 100_000,
      overscan: 5,
    });
    expect(w.start).toBe(49_995);
    expect(w.end).toBe(50_016);
    expect(w.offsetTop).toBe(49_995 * 40);
  });

  it('clamps a scroll past the end to the last rows', () => {
    const w = visibleWindow({
      scrollTop: 9e9,
      viewportHeight: 400,
      rowHeight: 40,
      total: 1000,
      overscan: 3,
    });
    expect(w.end).toBe(1000);
    expect(w.start).toBe(990 - 3);
  });

  it('is empty for no rows and rejects a zero row height', () => {
    expect(
      visibleWindow({ scrollTop: 0, viewportHeight: 400, rowHeight: 40, total: 0, overscan: 3 }),
    ).toEqual({
      start: 0,
      end: 0,
      offsetTop: 0,
      totalHeight: 0,
    });
    expect(() =>
      visibleWindow({ scrollTop: 0, viewportHeight: 1, rowHeight: 0, total: 1, overscan: 0 }),
    ).toThrow(/rowHeight/);
  });

  it('always covers every row that is on screen, and never many more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 10, max: 80 }),
        fc.integer({ min: 0, max: 20 }),
        (total, scrollTop, viewportHeight, rowHeight, overscan) => {
          const w = visibleWindow({ scrollTop, viewportHeight, rowHeight, total, overscan });
          const maxScroll = Math.max(0, total * rowHeight - viewportHeight);
          const top = Math.min(scrollTop, maxScroll);
          const firstOnScreen = Math.floor(top / rowHeight);
          const lastOnScreen = Math.min(
            total - 1,
            Math.floor((top + viewportHeight - 1) / rowHeight),
          );
          if (total > 0) {
            expect(w.start).toBeLessThanOrEqual(firstOnScreen);
            expect(w.end).toBeGreaterThan(lastOnScreen);
          }
          expect(w.end - w.start).toBeLessThanOrEqual(
            Math.ceil(viewportHeight / rowHeight) + 1 + 2 * overscan,
          );
          expect(w.start).toBeGreaterThanOrEqual(0);
          expect(w.end).toBeLessThanOrEqual(total);
        },
      ),
    );
  });
});

describe('pagesForRange', () => {
  it('lists the pages a row range touches', () => {
    expect(pagesForRange(0, 10, 200)).toEqual([0]);
    expect(pagesForRange(190, 215, 200)).toEqual([0, 1]);
    expect(pagesForRange(400, 400, 200)).toEqual([]);
    expect(pagesForRange(99_990, 100_000, 200)).toEqual([499]);
  });
});

describe('scrollTopForRow', () => {
  it('moves the least to show a row', () => {
    expect(scrollTopForRow(0, 400, 200, 40)).toBe(0);
    expect(scrollTopForRow(20, 0, 200, 40)).toBe(20 * 40 + 40 - 200);
    expect(scrollTopForRow(5, 100, 200, 40)).toBe(100);
  });
});

describe('PageCache', () => {
  it('finds rows by index and drops the pages farthest from where the user is', () => {
    const cache = new PageCache<number>(3);
    for (const page of [0, 1, 2]) cache.set(page, [page * 10, page * 10 + 1], page);
    expect(cache.row(3, 2)).toBe(11);
    cache.set(10, [100, 101], 10);
    expect(cache.size).toBe(3);
    expect(cache.has(0)).toBe(false);
    expect(cache.has(10)).toBe(true);
    expect(cache.row(0, 2)).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
