/**
 * The data folder is the user's alone (0700) and so are the SQLite files in it (0600): the
 * database, its -wal and -shm, and anything else the app writes there. Checked on real files
 * with a permissive umask (022), as a user's shell usually has, both through the store and
 * through the browser-mode command in a real process.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/store/database';
import { pickUrl, repoRoot, startChild } from '../e2e/support/child';

const onPosix = process.platform !== 'win32';
const modeOf = (path: string) => statSync(path).mode & 0o777;

/**
 * Every file and folder under `dir`, with its mode (a folder's mode has its type bit added). A
 * file gone between the listing and its stat (SQLite's rollback journal lives for one write in a
 * running app) is left out: what no longer exists cannot be read by anyone.
 */
function modesUnder(dir: string): Map<string, number> {
  const modes = new Map<string, number>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats) modes.set(path, (stats.mode & 0o777) | (stats.isDirectory() ? FOLDER : 0));
  }
  return modes;
}
const FOLDER = 0o40000;

describe.runIf(onPosix)('data folder and database file modes', () => {
  let base: string;
  let previousUmask: number;

  beforeEach(() => {
    previousUmask = process.umask(0o022);
    base = mkdtempSync(join(tmpdir(), 'spotfolio-modes-'));
  });

  afterEach(() => {
    process.umask(previousUmask);
    rmSync(base, { recursive: true, force: true });
  });

  it('creates the folder 0700 and the database with its -wal and -shm 0600', () => {
    const dataDir = join(base, 'nested', 'Spotfolio');
    const { db, path } = openDatabase({ dataDir });
    try {
      db.exec('CREATE TABLE t (x TEXT)');
      db.prepare('INSERT INTO t VALUES (?)').run('balance');
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path)).toBe(0o600);
      expect(modeOf(`${path}-wal`)).toBe(0o600);
      expect(modeOf(`${path}-shm`)).toBe(0o600);
    } finally {
      db.close();
    }
  });

  it('tightens a folder and files left with looser modes by an earlier version', () => {
    const dataDir = join(base, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const first = openDatabase({ dataDir });
    first.db.exec('CREATE TABLE t (x TEXT)');
    first.db.close();
    for (const file of readdirSync(dataDir)) chmodSync(join(dataDir, file), 0o644);
    chmodSync(dataDir, 0o755);

    const again = openDatabase({ dataDir });
    try {
      again.db.prepare('INSERT INTO t VALUES (?)').run('x');
      expect(modeOf(dataDir)).toBe(0o700);
      const modes = modesUnder(dataDir);
      expect(modes.size).toBeGreaterThanOrEqual(1);
      for (const [file, mode] of modes) expect(mode, file).toBe(0o600);
    } finally {
      again.db.close();
    }
  });

  it('keeps a moved-aside damaged file and its fresh replacement 0600', () => {
    const dataDir = join(base, 'damaged');
    mkdirSync(dataDir);
    const path = join(dataDir, 'cache.sqlite');
    writeFileSync(path, 'this is not a database'.repeat(512), { mode: 0o644 });
    const opened = openDatabase({ dataDir });
    try {
      expect(opened.recovered).toBeDefined();
      for (const [file, mode] of modesUnder(dataDir)) expect(mode, file).toBe(0o600);
    } finally {
      opened.db.close();
    }
  });

  it('browser mode in a real process writes nothing anyone else may read', async () => {
    const dataDir = join(base, 'served', 'Spotfolio');
    const app = await startChild(
      join(repoRoot, 'node_modules/.bin/tsx'),
      ['electron/serve/cli.ts', '--port', '0', '--data-dir', dataDir],
      pickUrl,
      'Browser mode',
    );
    try {
      // The store opens once the app has started; wait for its file.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        if (readdirSync(dataDir).some((file) => file.endsWith('.sqlite'))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(modeOf(dataDir)).toBe(0o700);
      const modes = modesUnder(dataDir);
      expect([...modes.keys()].some((file) => file.endsWith('.sqlite'))).toBe(true);
      for (const [path, mode] of modes) {
        expect(mode & 0o077, `${path} (${mode.toString(8)})`).toBe(0);
        if (!(mode & FOLDER)) expect(mode, path).toBe(0o600);
      }
    } finally {
      await app.stop();
    }
  });
});
