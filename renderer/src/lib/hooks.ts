import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventName, EventPayloads } from '../../../shared/contract';
import type { DataKind } from '../../../shared/types';
import { bridge } from './bridge';
import { peekPrefetched, takePrefetched } from './prefetch';

/** Subscribes to a bridge event for the component's life; the latest listener is always used. */
export function useBridgeEvent<E extends EventName>(
  event: E,
  listener: (payload: EventPayloads[E]) => void,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => bridge().on(event, (payload) => latest.current(payload)), [event]);
}

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  /** True while the first answer for this key is awaited; reloads behind shown data are quiet. */
  loading: boolean;
  reload: () => void;
}

/**
 * Loads data from the bridge, keeps the last good value while reloading, and reloads when the
 * main process says one of `kinds` changed. `key` names the inputs: a new key loads again.
 */
export function useQuery<T>(
  key: string,
  load: () => Promise<T>,
  kinds: DataKind[],
  /** The name of a prefetch (lib/prefetch) whose answer serves the first load, if there is one. */
  prefetched?: string,
): QueryState<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: unknown; loading: boolean }>(
    () => {
      const early = prefetched === undefined ? null : peekPrefetched<T>(prefetched);
      return early ? { key, data: early.value, loading: false } : { key, loading: true };
    },
  );
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });
  // One call in flight at a time: a change that arrives meanwhile asks for one more call after
  // it, so a busy stream of data.changed events neither floods the bridge nor starves the screen.
  const inFlight = useRef(false);
  const again = useRef(false);
  const currentKey = useRef(key);
  const latestRun = useRef<() => void>(() => undefined);

  const run = useCallback(() => {
    currentKey.current = key;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    again.current = false;
    // A reload behind data already on screen changes nothing visible until its answer comes.
    setState((previous) =>
      previous.key !== key
        ? { key, loading: true }
        : previous.data === undefined && !previous.loading
          ? { ...previous, loading: true }
          : previous,
    );
    const settle = () => {
      inFlight.current = false;
      if (again.current) latestRun.current();
    };
    const early = prefetched === undefined ? null : takePrefetched<T>(prefetched);
    // A change announced before this component listened: show the early answer, then ask again.
    if (early?.changed) again.current = true;
    const pending = early ? early.promise.catch(() => loader.current()) : loader.current();
    pending.then(
      (data) => {
        if (currentKey.current !== key) return settle();
        // The same answer again (most live changes touch other data) keeps the object on screen,
        // so React skips the render: charts are not redrawn for nothing.
        setState((previous) =>
          previous.key === key &&
          !previous.loading &&
          previous.error === undefined &&
          sameJson(previous.data, data)
            ? previous
            : { key, data, error: undefined, loading: false },
        );
        settle();
      },
      (error: unknown) => {
        if (currentKey.current === key)
          setState((previous) => ({ ...previous, key, error, loading: false }));
        settle();
      },
    );
  }, [key, prefetched]);

  useEffect(() => {
    latestRun.current = run;
    run();
  }, [run]);

  const kindList = kinds.join(',');
  useBridgeEvent('data.changed', (payload) => {
    const watched = kindList.split(',');
    if (payload.kinds.some((kind) => watched.includes(kind))) run();
  });

  const sameKey = state.key === key;
  return {
    data: sameKey ? state.data : undefined,
    error: sameKey ? state.error : undefined,
    loading: state.loading || !sameKey,
    reload: run,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** The current time, refreshed every `intervalMs`, for "5 min ago" labels. */
export function useNow(intervalMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * Collects items from frequent events and hands them to `flush` at most once per animation frame,
 * so a burst of live updates causes one render, not hundreds.
 */
export function useFrameBatcher<T>(flush: (items: T[]) => void): (items: T[]) => void {
  const pending = useRef<T[]>([]);
  const frame = useRef<number | null>(null);
  const latestFlush = useRef(flush);
  useEffect(() => {
    latestFlush.current = flush;
  });
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return useCallback((items: T[]) => {
    pending.current.push(...items);
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const batch = pending.current;
      pending.current = [];
      latestFlush.current(batch);
    });
  }, []);
}
