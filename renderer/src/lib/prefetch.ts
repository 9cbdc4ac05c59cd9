/**
 * Calls the first screen needs, sent while the bundle is still starting rather than after React's
 * first render (in browser mode this also opens the WebSocket sooner). Each answer is taken once,
 * by the component that would have made the call. An event that could change an answer may
 * arrive before that component subscribes to events; the answer is then marked `changed`, and
 * the component shows it and asks again at once, so nothing is missed.
 */
import type { EventName } from '../../../shared/contract';
import type { DataKind } from '../../../shared/types';
import { bridge } from './bridge';

export interface Prefetched<T> {
  promise: Promise<T>;
  /** An event the answer depends on arrived after it was asked for. */
  changed: boolean;
}

interface Entry extends Prefetched<unknown> {
  kinds: readonly DataKind[];
  events: readonly EventName[];
  /** Set once the call has answered. */
  answer?: { value: unknown };
}

const entries = new Map<string, Entry>();
let unsubscribe: (() => void) | null = null;

function release(name: string): void {
  entries.delete(name);
  if (entries.size === 0 && unsubscribe) {
    unsubscribe();
    unsubscribe = null;
  }
}

function watchEvents(): void {
  if (unsubscribe) return;
  const api = bridge();
  const stops = [
    api.on('data.changed', ({ kinds }) => {
      for (const entry of entries.values()) {
        if (kinds.some((kind) => entry.kinds.includes(kind))) entry.changed = true;
      }
    }),
    api.on('connection.state', () => {
      for (const entry of entries.values()) {
        if (entry.events.includes('connection.state')) entry.changed = true;
      }
    }),
  ];
  unsubscribe = () => stops.forEach((stop) => stop());
}

/**
 * Sends `call` now; `kinds` (of data.changed) and `events` name what would change its answer.
 * A failed call is forgotten: the component then makes its own call and shows that outcome.
 */
export function prefetch<T>(
  name: string,
  call: () => Promise<T>,
  depends: { kinds?: readonly DataKind[]; events?: readonly EventName[] },
): void {
  watchEvents();
  const entry: Entry = {
    promise: call(),
    changed: false,
    kinds: depends.kinds ?? [],
    events: depends.events ?? [],
  };
  entries.set(name, entry);
  entry.promise.then(
    (value) => {
      entry.answer = { value };
    },
    () => {
      if (entries.get(name) === entry) release(name);
    },
  );
}

/**
 * The answer, if it has arrived; it stays there to be taken. For a component's first render: the
 * data is on screen in the same commit as the component, not one commit (and one paint, as
 * effects run after it) later. If it has `changed` since, the component's take says so and it
 * asks again, showing this answer meanwhile as it shows any last answer while reloading.
 */
export function peekPrefetched<T>(name: string): { value: T } | null {
  const entry = entries.get(name);
  return entry?.answer ? (entry.answer as { value: T }) : null;
}

/** The prefetched answer, once; null when there is none (not sent, taken, or failed). */
export function takePrefetched<T>(name: string): Prefetched<T> | null {
  const entry = entries.get(name);
  if (!entry) return null;
  release(name);
  return entry as Prefetched<T>;
}
