/**
 * The WAL checkpoint thread's body (a worker_threads Worker; WalCheckpoints in wal-checkpoints.ts
 * starts it): on a connection of its own to each of the store's files, it copies what the WAL
 * holds back into the file every `everyMs`, and at once when asked. A passive checkpoint waits
 * for no reader and no writer, so the thread that writes a fill never copies pages or syncs the
 * file inside its commit, as SQLite's automatic checkpoint would have it do.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { Repeater, SystemClock } from '../core/clock';

export interface CheckpointThreadData {
  /** The store's files (the record and the cache), each in WAL mode already. */
  files: string[];
  everyMs: number;
}

/** One file's checkpoint: frames in its WAL, and how many of them are now in the file. */
export interface CheckpointCount {
  file: string;
  /** Frames in the WAL (SQLite's "log"). */
  frames: number;
  /** Frames copied back into the file, this time or before ("checkpointed"). */
  copied: number;
}

export type CheckpointRequest = { kind: 'now'; id: number } | { kind: 'stop' };

export type CheckpointReply =
  | { kind: 'ready' }
  | { kind: 'done'; id: number; counts: CheckpointCount[] }
  | { kind: 'failed'; error: string };

const port = parentPort!;
const data = workerData as CheckpointThreadData;

function checkpointAll(connections: Database.Database[]): CheckpointCount[] {
  return connections.map((db) => {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    return { file: db.name, frames: row?.log ?? 0, copied: row?.checkpointed ?? 0 };
  });
}

function fail(error: unknown): void {
  port.postMessage({
    kind: 'failed',
    error: error instanceof Error ? error.message : String(error),
  } satisfies CheckpointReply);
}

const connections: Database.Database[] = [];
let opening = '';
try {
  for (const file of data.files) {
    opening = file;
    const db = new Database(file, { fileMustExist: true });
    connections.push(db);
    // As the store's own connection (database.ts configure): a checkpoint syncs the WAL before
    // it copies and the file after, whichever of NORMAL or FULL is set; OFF would sync neither.
    db.pragma('synchronous = NORMAL');
  }
} catch (error) {
  fail(`${opening}: ${error instanceof Error ? error.message : String(error)}`);
  for (const db of connections.splice(0)) db.close();
  port.close();
}

if (connections.length > 0) {
  // The thread's own root: its clock is the wall's, as the app's entry points' is.
  const repeater = new Repeater(new SystemClock(), data.everyMs, () => void checkpoint());
  const stop = (): void => {
    repeater.stop();
    for (const db of connections) if (db.open) db.close();
    port.close();
  };
  /** A checkpoint that throws ends the thread: the store's writer takes its checkpoints back. */
  const checkpoint = (): CheckpointCount[] | undefined => {
    try {
      return checkpointAll(connections);
    } catch (error) {
      fail(error);
      stop();
      return undefined;
    }
  };
  port.on('message', (request: CheckpointRequest) => {
    if (request.kind === 'stop') {
      stop();
      return;
    }
    const counts = checkpoint();
    if (counts)
      port.postMessage({ kind: 'done', id: request.id, counts } satisfies CheckpointReply);
  });
  port.postMessage({ kind: 'ready' } satisfies CheckpointReply);
}
