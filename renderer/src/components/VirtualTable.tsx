import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { hashKey, useQueries, type QueryKey } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { pagesForRange } from '../lib/pages';

export interface TablePage<T> {
  rows: T[];
  total: number;
}

export interface VirtualTableProps<T> {
  /**
   * The query key of the page at `offset` (the bridge method and its whole input). Pages of one
   * query differ only in offset: when the rest changes, the list starts again at the top.
   */
  pageKey: (offset: number, limit: number) => QueryKey;
  loadPage: (offset: number, limit: number) => Promise<TablePage<T>>;
  rowHeight: number;
  pageSize: number;
  /** The query's row count once known, null while its first page loads. */
  onTotal?: (total: number | null) => void;
  /** A page that failed to load (after its retries), or undefined once none does. */
  onError?: (error: unknown) => void;
  header: ReactNode;
  renderRow: (row: T | undefined, index: number) => ReactNode;
  label: string;
  empty: ReactNode;
  testId?: string;
}

const overscan = 8;
/** Pages read on screen, plus this many rows ahead of the last one, so a scroll finds them. */
const lookahead = 0.5;

/**
 * A table that renders only the rows on screen (plus a few; TanStack Virtual) and loads the data
 * in pages as it scrolls (each page a query: cached, and read again when its data changes), so
 * 100,000 records scroll as smoothly as 100.
 */
export function VirtualTable<T>(props: VirtualTableProps<T>) {
  const { pageKey, loadPage, rowHeight, pageSize, onTotal, onError } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const identity = hashKey(pageKey(0, pageSize));
  // The count of the query on screen survives pages whose answers are still on their way.
  const [known, setKnown] = useState<{ identity: string; total: number } | null>(null);
  const lastTotal = known?.identity === identity ? known.total : null;

  const virtualizer = useVirtualizer({
    count: lastTotal ?? 0,
    getScrollElement: () => viewport.current,
    estimateSize: () => rowHeight,
    overscan,
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const end = (items.at(-1)?.index ?? -1) + 1;
  // The first page is always read, even when the list is empty: it carries the count, and an
  // unobserved query is never read again, so an empty answer (a list read before the first sync
  // stored anything) would otherwise stand for good.
  const pages = useMemo(() => {
    if (lastTotal === null) return [0];
    const shown = pagesForRange(first, Math.min(lastTotal, end + pageSize * lookahead), pageSize);
    return shown.length === 0 ? [0] : shown;
  }, [first, end, lastTotal, pageSize]);

  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: pageKey(page * pageSize, pageSize),
      queryFn: () => loadPage(page * pageSize, pageSize),
      // Pages scrolled past are dropped soon, so scrolling 100,000 rows keeps memory flat.
      gcTime: 30_000,
    })),
  });

  const newest = results.reduce<(typeof results)[number] | undefined>(
    (best, result) =>
      result.data && (!best?.data || result.dataUpdatedAt > best.dataUpdatedAt) ? result : best,
    undefined,
  );
  const total = newest?.data?.total ?? lastTotal;
  // Derived state, set while rendering: React renders again at once with it.
  if (total !== null && total !== lastTotal) setKnown({ identity, total });
  const error = results.find((result) => result.error)?.error ?? undefined;

  useEffect(() => onTotal?.(total), [total, onTotal]);
  useEffect(() => onError?.(error), [error, onError]);

  // A new query starts at the top.
  const shownIdentity = useRef(identity);
  useEffect(() => {
    if (shownIdentity.current === identity) return;
    shownIdentity.current = identity;
    virtualizer.scrollToOffset(0);
  }, [identity, virtualizer]);

  const rowOf = (index: number): T | undefined => {
    const page = Math.floor(index / pageSize);
    const at = pages.indexOf(page);
    return at < 0 ? undefined : results[at]?.data?.rows[index - page * pageSize];
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const element = viewport.current;
    if (!element) return;
    const moves: Record<string, number> = {
      ArrowDown: rowHeight,
      ArrowUp: -rowHeight,
      PageDown: element.clientHeight - rowHeight,
      PageUp: -(element.clientHeight - rowHeight),
    };
    if (event.key in moves) {
      element.scrollTop += moves[event.key] ?? 0;
      event.preventDefault();
    } else if (event.key === 'Home') {
      element.scrollTop = 0;
      event.preventDefault();
    } else if (event.key === 'End') {
      element.scrollTop = element.scrollHeight;
      event.preventDefault();
    }
  };

  return (
    <div
      className="vtable"
      role="table"
      aria-label={props.label}
      aria-rowcount={(total ?? 0) + 1}
      data-testid={props.testId}
      data-total={total ?? ''}
    >
      <div className="vrow vhead" role="row" aria-rowindex={1}>
        {props.header}
      </div>
      {/* The viewport stays mounted when the query matches nothing, so the windowing keeps
          measuring the same element when rows come back. */}
      <div
        ref={viewport}
        className="vviewport"
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-label={`${props.label}, scroll with the arrow keys`}
        data-testid={props.testId ? `${props.testId}-viewport` : undefined}
      >
        {total === 0 ? (
          props.empty
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            <div style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
              {items.map((item) => (
                <div
                  key={item.index}
                  className="vrow"
                  role="row"
                  aria-rowindex={item.index + 2}
                  style={{ height: rowHeight }}
                  data-index={item.index}
                >
                  {props.renderRow(rowOf(item.index), item.index)}
                </div>
              ))}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
