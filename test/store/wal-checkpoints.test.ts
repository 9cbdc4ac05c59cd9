/**
 * The store's WAL checkpoints on a thread of their own (WalCheckpoints, checkpoint-thread.ts), on
 * real SQLite files and a real worker thread: the store's commits no longer copy the WAL back,
 * the thread does, the WAL then starts over instead of growing, and a thread that cannot start or
 * fails hands the checkpoints back to the store's connection.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../electron/store';
import {
  CHECKPOINT_THREAD_SOURCE,
  SQLITE_AUTOCHECKPOINT_PAGES,
  WAL_BOUND_PAGES,
  WalCheckpoints,
} from '../../electron/store/wal-checkpoints';
import { freshStore, removeTempDirs, tempDir, withdraw } from './helpers';

const FAILING_THREAD = new URL('./fixtures/checkpoint-thread-failing.mjs', import.meta.url);
/** Far beyond any test's length: only now() checkpoints. */
const ONLY_WHEN_ASKED_MS = 3_600_000;

const opened: { store: Store; checkpoints?: WalCheckpoints }[] = [];
afterEach(async () => {
  for (const { store, checkpoints } of opened.splice(0)) {
    await checkpoints?.close();
    store.close();
  }
  removeTempDirs();
});

function started(options: { everyMs?: number; script?: URL } = {}) {
  const store = freshStore('p1');
  const warnings: string[] = [];
  const checkpoints = new WalCheckpoints(store, {
    script: options.script ?? CHECKPOINT_THREAD_SOURCE,
    everyMs: options.everyMs ?? ONLY_WHEN_ASKED_MS,
    log: { info: () => undefined, warn: (message) => warnings.push(message) },
  });
  opened.push({ store, checkpoints });
  return { store, checkpoints, warnings };
}

const PAGE_BYTES = 4096;
/** Steps of write() that take the WAL past SQLite's 1,000 pages (some 1,800 pages). */
const ROUND = 40;
let nextWithdraw = 0;
/** `steps` transactions of 200 withdraw records each (the cache): some 45 WAL pages a step. */
function write(store: Store, steps: number): void {
  for (let step = 0; step < steps; step++) {
    const records = Array.from({ length: 200 }, () => {
      const n = nextWithdraw++;
      return withdraw({ id: `w${n}`, address: `address-${n}`.padEnd(64, 'x'), amount: `${n}.5` });
    });
    store.transaction(() => store.withdraws.upsertMany('p1', records));
  }
}

const walBytes = (store: Store) => statSync(`${store.paths.cache}-wal`).size;
const autocheckpoint = (store: Store) => store.db.pragma('wal_autocheckpoint', { simple: true });

describe('WAL checkpoints on their own thread', () => {
  it('takes the checkpoints from the store’s commits, and the WAL starts over after each', async () => {
    const { store, checkpoints, warnings } = started();
    expect(await checkpoints.ready).toBe(true);
    expect(checkpoints.active).toBe(true);
    expect(autocheckpoint(store)).toBe(WAL_BOUND_PAGES);

    // Past SQLite's 1,000 pages: the store's own commit would have checkpointed and started over.
    write(store, ROUND);
    const grown = walBytes(store);
    expect(grown).toBeGreaterThan(SQLITE_AUTOCHECKPOINT_PAGES * PAGE_BYTES);

    const counts = await checkpoints.now();
    const cache = counts.find((count) => count.file === store.paths.cache)!;
    expect(cache.frames).toBeGreaterThan(SQLITE_AUTOCHECKPOINT_PAGES);
    expect(cache.copied).toBe(cache.frames);
    expect(counts.map((count) => count.file).sort()).toEqual(
      [store.paths.cache, store.paths.record].sort(),
    );

    // The next commits write the WAL from its start: as much again leaves it about as it was
    // (a round's pages grow a little with the table's indexes).
    write(store, ROUND);
    expect(walBytes(store)).toBeLessThan(grown * 1.2);
    await checkpoints.now();
    write(store, ROUND);
    expect(walBytes(store)).toBeLessThan(grown * 1.2);

    // Without a checkpoint between, the same writes grow it by as much again.
    write(store, ROUND);
    expect(walBytes(store)).toBeGreaterThan(grown * 1.8);
    expect(warnings).toEqual([]);
  });

  it('checkpoints on its own timer', async () => {
    const { store, checkpoints } = started({ everyMs: 20 });
    expect(await checkpoints.ready).toBe(true);
    write(store, ROUND);
    const grown = walBytes(store);
    // The timer's checkpoints copy every frame, and the WAL starts over instead of growing.
    for (let round = 0; round < 4; round++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      write(store, ROUND);
    }
    expect(walBytes(store)).toBeLessThan(grown * 1.5);
  });

  it('leaves every commit in the files, and the store’s close removes the WAL', async () => {
    const { store, checkpoints } = started({ everyMs: 5 });
    expect(await checkpoints.ready).toBe(true);
    for (let round = 0; round < 20; round++) {
      write(store, 10);
      store.settings.set(`round`, round);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await checkpoints.close();
    expect(checkpoints.active).toBe(false);
    expect(autocheckpoint(store)).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    const { dataDir } = store.paths;
    store.close();
    opened.length = 0;
    expect(existsSync(`${store.paths.cache}-wal`)).toBe(false);
    expect(existsSync(`${store.paths.record}-wal`)).toBe(false);

    const again = openStore({ dataDir }).store;
    opened.push({ store: again });
    expect(again.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(again.withdraws.count('p1')).toBe(20 * 10 * 200);
    expect(again.settings.get('round')).toBe(19);
  });

  it('hands the checkpoints back when the thread cannot start', async () => {
    const { store, checkpoints, warnings } = started({
      script: new URL('./fixtures/no-such-thread.mjs', import.meta.url),
    });
    expect(await checkpoints.ready).toBe(false);
    expect(checkpoints.active).toBe(false);
    expect(autocheckpoint(store)).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The WAL checkpoint thread could not start \(.+\); the store/);
    await expect(checkpoints.now()).rejects.toThrow('not running');
  });

  it('hands the checkpoints back when the thread fails later', async () => {
    const { store, checkpoints, warnings } = started({ script: FAILING_THREAD });
    expect(await checkpoints.ready).toBe(true);
    expect(autocheckpoint(store)).toBe(WAL_BOUND_PAGES);
    await vi.waitFor(() => expect(checkpoints.active).toBe(false));
    expect(autocheckpoint(store)).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    expect(warnings).toEqual([
      'The WAL checkpoint thread stopped (disk I/O error); the store checkpoints on its own again',
    ]);
    // The store's own checkpoint is back: past 1,000 pages the WAL starts over on its own.
    for (let round = 0; round < 4; round++) write(store, ROUND);
    expect(walBytes(store)).toBeLessThan(2 * SQLITE_AUTOCHECKPOINT_PAGES * PAGE_BYTES);
  });

  it('names a file it cannot open', async () => {
    const store = freshStore('p1');
    const warnings: string[] = [];
    const missing = join(tempDir(), 'missing.sqlite');
    const checkpoints = new WalCheckpoints(
      { ...store, paths: { ...store.paths, cache: missing } },
      {
        script: CHECKPOINT_THREAD_SOURCE,
        log: { info: () => undefined, warn: (message) => warnings.push(message) },
      },
    );
    opened.push({ store, checkpoints });
    expect(await checkpoints.ready).toBe(false);
    expect(warnings).toEqual([
      `The WAL checkpoint thread could not start (${missing}: unable to open database file); ` +
        'the store checkpoints on its own',
    ]);
  });
});
