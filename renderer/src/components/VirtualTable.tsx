import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { PageCache, pagesForRange, visibleWindow } from '../lib/virtual';

export interface VirtualTableProps<T> {
  /** Changes whenever the query changes: the cache is dropped and the list scrolls to the top. */
  queryKey: string;
  /** Bumped when the data behind the same query changed: visible pages are fetched again. */
  refreshToken: number;
  rowHeight: number;
  pageSize: number;
  loadPage: (offset: number, limit: number) => Promise<{ rows: T[]; total: number }>;
  onTotal?: (total: number) => void;
  onError?: (error: unknown) => void;
  header: ReactNode;
  renderRow: (row: T | undefined, index: number) => ReactNode;
  label: string;
  empty: ReactNode;
  testId?: string;
}

const overscan = 8;

/**
 * A table that renders only the rows on screen (plus a few) and loads the data in pages as it
 * scrolls, so 100,000 records scroll as smoothly as 100.
 */
export function VirtualTable<T>(props: VirtualTableProps<T>) {
  const { queryKey, refreshToken, rowHeight, pageSize, loadPage, onTotal, onError } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const cache = useRef(new PageCache<T>(40));
  const inFlight = useRef(new Set<number>());
  const generation = useRef(0);
  const [total, setTotal] = useState<number | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(400);
  const [, setVersion] = useState(0);
  const frame = useRef<number | null>(null);

  const rowWindow = visibleWindow({
    scrollTop,
    viewportHeight,
    rowHeight,
    total: total ?? 0,
    overscan,
  });

  const refetchAfter = useRef(new Set<number>());
  const fetchPage = useCallback(
    function fetchPage(page: number, force = false): void {
      if (inFlight.current.has(page)) {
        // Newer data was announced while this page was on its way: read it once more after.
        if (force) refetchAfter.current.add(page);
        return;
      }
      if (!force && cache.current.has(page)) return;
      const started = generation.current;
      inFlight.current.add(page);
      const settle = () => {
        inFlight.current.delete(page);
        if (refetchAfter.current.delete(page)) fetchPage(page, true);
      };
      loadPage(page * pageSize, pageSize).then(
        (result) => {
          if (started !== generation.current) return;
          cache.current.set(page, result.rows, page);
          setTotal(result.total);
          onTotal?.(result.total);
          setVersion((v) => v + 1);
          settle();
        },
        (error: unknown) => {
          if (started !== generation.current) return;
          onError?.(error);
          settle();
        },
      );
    },
    [loadPage, pageSize, onTotal, onError],
  );

  // A new query: forget everything and start at the top.
  useEffect(() => {
    generation.current++;
    cache.current.clear();
    inFlight.current.clear();
    refetchAfter.current.clear();
    setTotal(null);
    setScrollTop(0);
    if (viewport.current) viewport.current.scrollTop = 0;
    fetchPage(0);
  }, [queryKey, fetchPage]);

  // Same query, newer data: re-read the pages on screen, drop the rest.
  useEffect(() => {
    if (refreshToken === 0) return;
    const needed = pagesForRange(rowWindow.start, Math.max(rowWindow.end, 1), pageSize);
    const keep = new Map(needed.map((page) => [page, cache.current.get(page)]));
    cache.current.clear();
    for (const [page, rows] of keep) if (rows) cache.current.set(page, rows, page);
    for (const page of needed) fetchPage(page, true);
    // Only a new token should trigger this; the window is read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshToken]);

  useEffect(() => {
    if (total === null) return;
    const end = Math.min(total, rowWindow.end + pageSize / 2);
    for (const page of pagesForRange(rowWindow.start, end, pageSize)) fetchPage(page);
  }, [rowWindow.start, rowWindow.end, total, pageSize, fetchPage]);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight));
    observer.observe(element);
    setViewportHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      if (viewport.current) setScrollTop(viewport.current.scrollTop);
    });
  };
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

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

  const rows: ReactNode[] = [];
  for (let index = rowWindow.start; index < rowWindow.end; index++) {
    rows.push(
      <div
        key={index}
        className="vrow"
        role="row"
        aria-rowindex={index + 2}
        style={{ height: rowHeight }}
        data-index={index}
      >
        {props.renderRow(cache.current.row(index, pageSize), index)}
      </div>,
    );
  }

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
      {total === 0 ? (
        props.empty
      ) : (
        <div
          ref={viewport}
          className="vviewport"
          tabIndex={0}
          onScroll={onScroll}
          onKeyDown={onKeyDown}
          aria-label={`${props.label}, scroll with the arrow keys`}
          data-testid={props.testId ? `${props.testId}-viewport` : undefined}
        >
          <div style={{ height: rowWindow.totalHeight, position: 'relative' }}>
            <div style={{ transform: `translateY(${rowWindow.offsetTop}px)` }}>{rows}</div>
          </div>
        </div>
      )}
    </div>
  );
}
