import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pagesForRange } from '../../renderer/src/lib/pages';

describe('pagesForRange', () => {
  it('lists the pages a row range touches', () => {
    expect(pagesForRange(0, 10, 200)).toEqual([0]);
    expect(pagesForRange(190, 215, 200)).toEqual([0, 1]);
    expect(pagesForRange(400, 400, 200)).toEqual([]);
    expect(pagesForRange(99_990, 100_000, 200)).toEqual([499]);
    expect(() => pagesForRange(0, 1, 0)).toThrow(/pageSize/);
  });

  it('covers every row of the range with consecutive pages and no page more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 1, max: 500 }),
        (start, length, pageSize) => {
          const pages = pagesForRange(start, start + length, pageSize);
          expect(pages[0]).toBe(Math.floor(start / pageSize));
          expect(pages.at(-1)).toBe(Math.floor((start + length - 1) / pageSize));
          pages.forEach((page, i) => i > 0 && expect(page).toBe(pages[i - 1]! + 1));
        },
      ),
    );
  });
});
