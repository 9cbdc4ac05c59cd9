/**
 * The store's WAL checkpoints, taken by a thread of their own (checkpoint-thread.ts) rather than
 * by the commit that takes the WAL past SQLite's 1,000 pages. That commit would copy the pages
 * back and sync the file on the main process's thread: 4–7 ms inside a live fill's write, where
 * the write alone takes about half a millisecond (docs/architecture.md, The store, "Checkpoints
 * off the thread that writes").
 *
 * While the thread runs, the store's connection checkpoints only past WAL_BOUND_PAGES, a bound on
 * the WAL should the thread fall behind. When the thread cannot start, or fails later, the store
 * takes its checkpoints back at SQLite's default and the log says so; nothing else changes, as a
 * checkpoint moves what the WAL holds and each commit is as durable either way.
 */
import { Worker } from 'node:worker_threads';
import type {
  CheckpointCount,
  CheckpointReply,
  CheckpointRequest,
  CheckpointThreadData,
} from './checkpoint-thread';
import type { Store } from './index';

/** How often the thread checkpoints. */
export const CHECKPOINT_EVERY_MS = 1000;
/** The store connection's own checkpoint while the thread runs: past 40 MB of 4 KB pages. */
export const WAL_BOUND_PAGES = 10_000;
/** SQLite's default, for the store's connection when no thread checkpoints. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** The thread's script where the app runs from its TypeScript (checkpoint-thread-source.mjs). */
export const CHECKPOINT_THREAD_SOURCE = new URL('./checkpoint-thread-source.mjs', import.meta.url);

export interface WalCheckpointsOptions {
  /** CHECKPOINT_THREAD_SOURCE, or the built checkpoint-thread.cjs. */
  script: string | URL;
  everyMs?: number;
  /** Told when the thread takes the checkpoints (info), or cannot or stops taking them (warn). */
  log: { info(message: string): void; warn(message: string): void };
}

export type { CheckpointCount };

export class WalCheckpoints {
  /** Resolves true once the thread checkpoints, false when it could not start. */
  readonly ready: Promise<boolean>;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (counts: CheckpointCount[] | Error) => void>();
  private readonly exited: Promise<void>;
  private state: 'starting' | 'running' | 'stopped' | 'closing' = 'starting';
  private nextId = 0;

  constructor(
    private readonly store: Store,
    options: WalCheckpointsOptions,
  ) {
    const data: CheckpointThreadData = {
      files: [store.paths.record, store.paths.cache],
      everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS,
    };
    let started: (running: boolean) => void = () => undefined;
    this.ready = new Promise((resolve) => (started = resolve));
    this.worker = new Worker(options.script, { workerData: data });
    // The thread never holds the process open: the store's close ends it, or the process's exit.
    this.worker.unref();
    const stopped = (why: string): void => {
      const was = this.state;
      if (was === 'stopped' || was === 'closing') return;
      this.state = 'stopped';
      started(false);
      this.handBack();
      this.settleWaiting(new Error(`The WAL checkpoint thread stopped (${why})`));
      options.log.warn(
        was === 'running'
          ? `The WAL checkpoint thread stopped (${why}); the store checkpoints on its own again`
          : `The WAL checkpoint thread could not start (${why}); the store checkpoints on its own`,
      );
    };
    this.worker.on('message', (reply: CheckpointReply) => {
      if (reply.kind === 'ready') {
        if (this.state !== 'starting' || !this.store.db.open) return;
        this.store.db.pragma(`wal_autocheckpoint = ${WAL_BOUND_PAGES}`);
        this.state = 'running';
        options.log.info('The store’s WAL checkpoints run on a thread of their own');
        started(true);
      } else if (reply.kind === 'done') {
        this.waiting.get(reply.id)?.(reply.counts);
        this.waiting.delete(reply.id);
        if (this.waiting.size === 0) this.worker.unref();
      } else {
        stopped(reply.error);
      }
    });
    this.worker.on('error', (error) => stopped(error.message));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        stopped(`exit code ${code}`);
        started(false);
        this.settleWaiting(new Error('The WAL checkpoint thread was closed'));
        resolve();
      }),
    );
  }

  /** Whether the thread is taking the store's checkpoints. */
  get active(): boolean {
    return this.state === 'running';
  }

  /** A checkpoint of both files at once, on the thread: each file's frames and those copied. */
  now(): Promise<CheckpointCount[]> {
    if (this.state !== 'running') {
      return Promise.reject(new Error('The WAL checkpoint thread is not running'));
    }
    const id = this.nextId++;
    return new Promise<CheckpointCount[]>((resolve, reject) => {
      this.waiting.set(id, (counts) =>
        counts instanceof Error ? reject(counts) : resolve(counts),
      );
      this.worker.ref();
      this.worker.postMessage({ kind: 'now', id } satisfies CheckpointRequest);
    });
  }

  /**
   * Stops the thread and hands the checkpoints back to the store's connection; before the store
   * closes, so that its close, the last connection's, copies the WAL back and removes it.
   */
  close(): Promise<void> {
    if (this.state !== 'closing') {
      if (this.state !== 'stopped') this.handBack();
      this.state = 'closing';
      // Held by the thread until it has ended: an unreferenced thread would let the process
      // exit while its close is awaited, before the store's.
      this.worker.ref();
      this.worker.postMessage({ kind: 'stop' } satisfies CheckpointRequest);
    }
    return this.exited;
  }

  private handBack(): void {
    if (this.store.db.open) {
      this.store.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    }
  }

  private settleWaiting(error: Error): void {
    for (const done of this.waiting.values()) done(error);
    this.waiting.clear();
  }
}
