/**
 * The first screen's calls sent before React renders (renderer/src/lib/prefetch.ts): an answer
 * is taken once, is marked changed when an event it depends on arrives before it is taken, and a
 * failed call is forgotten so the screen asks for itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { peekPrefetched, prefetch, takePrefetched } from '../../renderer/src/lib/prefetch';

type Listener = (payload: unknown) => void;

function fakeBridge() {
  const listeners = new Map<string, Set<Listener>>();
  return {
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(event: string, payload: unknown) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}

let bridge: ReturnType<typeof fakeBridge>;
const host = globalThis as unknown as { window?: { spotfolio: unknown } };

beforeEach(() => {
  bridge = fakeBridge();
  host.window = { spotfolio: bridge };
});

afterEach(() => {
  takePrefetched('a');
  takePrefetched('b');
  delete host.window;
});

describe('prefetched calls', () => {
  it('hands an answer out once, unchanged, and stops listening when all are taken', async () => {
    prefetch('a', async () => 1, { kinds: ['funds'] });
    expect(bridge.listenerCount()).toBeGreaterThan(0);
    bridge.emit('data.changed', { profileId: 'p', kinds: ['orders'] });
    const early = takePrefetched<number>('a');
    expect(early?.changed).toBe(false);
    expect(await early?.promise).toBe(1);
    expect(takePrefetched('a')).toBeNull();
    expect(bridge.listenerCount()).toBe(0);
  });

  it('marks an answer changed by a data kind or an event it depends on', () => {
    prefetch('a', async () => 1, { kinds: ['funds', 'prices'] });
    prefetch('b', async () => 2, { kinds: ['profiles'], events: ['connection.state'] });
    bridge.emit('data.changed', { profileId: 'p', kinds: ['prices'] });
    bridge.emit('connection.state', { profileId: 'p', state: 'live', since: 1 });
    expect(takePrefetched('a')?.changed).toBe(true);
    expect(takePrefetched('b')?.changed).toBe(true);
  });

  it('forgets a failed call', async () => {
    prefetch('a', () => Promise.reject(new Error('no profile')), {});
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(takePrefetched('a')).toBeNull();
    expect(bridge.listenerCount()).toBe(0);
  });

  it('lets a first render peek at an answer that has arrived, leaving it to be taken', async () => {
    prefetch('a', async () => 'total', { kinds: ['funds'] });
    expect(peekPrefetched('a')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(peekPrefetched('a')).toEqual({ value: 'total' });
    bridge.emit('data.changed', { profileId: 'p', kinds: ['funds'] });
    // Still shown while the component asks again, which its take tells it to.
    expect(peekPrefetched('a')).toEqual({ value: 'total' });
    expect(takePrefetched('a')?.changed).toBe(true);
    expect(peekPrefetched('a')).toBeNull();
  });
});
