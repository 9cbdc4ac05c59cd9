import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventName, EventPayloads } from '../../../shared/contract';
import { bridge } from './bridge';

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
