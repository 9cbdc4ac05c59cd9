/**
 * SIGKILL at random moments while a child writes sync steps: after every kill the file opens
 * without recovery, passes integrity_check, holds every step the child reported committed, and
 * holds no step partially. One of the two writers has its WAL checkpointed by a thread of its
 * own (WalCheckpoints) every 5 ms, so kills also fall inside that thread's checkpoints.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/store';
import { SeededRandom } from '../../electron/sandbox/random';
import { ROWS_PER_STEP } from './fixtures/sync-writer-constants';
import { bundledScript } from '../support/child-script';
import { removeTempDirs, tempDir } from './helpers';

afterEach(removeTempDirs);

const here = dirname(fileURLToPath(import.meta.url));
const writer = bundledScript(join(here, 'fixtures', 'sync-writer.ts'));
const checkpointThread = bundledScript(join(here, '../../electron/store/checkpoint-thread.ts'));
const KILLS = 20;

interface RunResult {
  committed: number[];
}

/** Starts the writer, kills it with SIGKILL `delayMs` after it is ready, returns what it reported. */
function runAndKill(
  dataDir: string,
  firstStep: number,
  delayMs: number,
  withThread: boolean,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // node runs the bundled writer itself, so the pid killed is the writer's, not a wrapper's.
    const args = [
      writer(),
      dataDir,
      String(firstStep),
      ...(withThread ? [checkpointThread()] : []),
    ];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (timer === undefined && out.includes('ready\n')) {
        timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') {
        reject(new Error(`writer exited with ${code ?? signal} before the kill: ${err}`));
        return;
      }
      // Only complete lines count: a line cut by the kill was not reported.
      const committed = out
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('committed '))
        .map((line) => Number(line.slice('committed '.length)));
      resolve({ committed });
    });
  });
}

/** One writer's data folder, killed and reopened `kills` times; returns the steps reported. */
async function killRounds(
  dataDir: string,
  kills: number,
  random: SeededRandom,
  withThread: boolean,
): Promise<number> {
  let nextStep = 0;
  const reported = new Set<number>();
  for (let round = 0; round < kills; round++) {
    const delayMs = Math.floor(random.next() * 100);
    const { committed } = await runAndKill(dataDir, nextStep, delayMs, withThread);
    for (const step of committed) reported.add(step);

    const { store, recovered } = openStore({ dataDir });
    expect(recovered).toBeUndefined();
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const perStep = store.db
      .prepare(
        `SELECT CAST(substr(id, 1, instr(id, '-') - 1) AS INTEGER) AS step, count(*) AS n
         FROM withdraws WHERE profile_id = 'p1' GROUP BY step`,
      )
      .all() as { step: number; n: number }[];
    const present = new Map(perStep.map((row) => [row.step, row.n]));
    // No partial step: each step is all its rows or none.
    for (const [step, n] of present) {
      expect(`step ${step}: ${n}`).toBe(`step ${step}: ${ROWS_PER_STEP}`);
    }
    // Every reported step is there.
    for (const step of reported)
      expect(present.has(step), `step ${step} reported but missing`).toBe(true);
    // The cursor written in the same transaction names the newest step present.
    const newest = Math.max(-1, ...present.keys());
    const cursor = store.syncState.get<{ lastStep: number }>('p1', 'withdraws');
    if (newest >= 0) expect(cursor?.cursor.lastStep).toBe(newest);
    store.close();
    nextStep = newest + 1;
  }
  return reported.size;
}

describe('durability under SIGKILL', () => {
  it(`keeps every reported transaction whole across ${KILLS} kills`, async () => {
    // Two writers side by side (each in its own folder) halve the wall time of 20 process starts.
    const lanes = 2;
    const reported = await Promise.all(
      Array.from({ length: lanes }, (_, lane) =>
        killRounds(tempDir(), KILLS / lanes, new SeededRandom(20261122 + lane), lane === 1),
      ),
    );
    for (const count of reported) expect(count).toBeGreaterThan(0);
  }, 120_000);
});
