/**
 * An error nobody caught does not end browser mode: a background SQLite write that throws in a
 * task nobody awaits is logged, and the app keeps serving (Node's default would exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-keep-serving-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('logs a failed background write and keeps serving', async () => {
  child = spawn(
    join(root, 'node_modules/.bin/tsx'),
    ['test/serve/fixtures/failing-write-child.ts', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));

  await expect
    .poll(() => lines.includes('fired') || child!.exitCode !== null, { timeout: 90_000 })
    .toBe(true);
  await expect
    .poll(() => stderr, { timeout: 30_000 })
    .toMatch(/A task nobody waited for failed \(the app keeps running\).*readonly/);
  expect(child.exitCode).toBe(null);

  // Still serving: the page's address answers.
  const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(lines.join('\n'))![1]!;
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(child.exitCode).toBe(null);
}, 180_000);
