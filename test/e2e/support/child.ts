/**
 * A real child process (the sandbox, browser mode, a bare server) started for a test or a bench,
 * ready once its stdout prints the line that `pick` accepts: a URL, or the sandbox's WorldInfo.
 * Browser mode runs as `npm run serve` runs it: the built bundle through scripts/start.mjs, with
 * --no-build: the tests' global setup builds once before the workers start, and nothing builds
 * during the run (a build empties out/ under the apps serving it: a CI run saw pages answered
 * 404 while a vitest fixture under shared/ made the sources look newer than the build).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');

/** Browser mode prints the address to open (with its token) on a line of its own. */
export const pickUrl = (line: string): string | undefined =>
  /(http:\/\/(?:127\.0\.0\.1|localhost):\d+\/\S*)/.exec(line)?.[1];

/**
 * Browser mode on `dataDir`, as `npm run serve -- --port 0 --data-dir DIR` starts it: one Node
 * process running the built bundle with V8's code cache (tsx compiling the sources took seconds
 * of every start). Resolves with the address it printed, once it listens.
 */
export function startBrowserMode(dataDir: string): Promise<StartedChild<string>> {
  return startChild(
    process.execPath,
    [
      'scripts/start.mjs',
      '--browser',
      // The run's global setup built the app once; an app's start never builds it again under
      // the apps already serving it (scripts/start.mjs).
      '--no-build',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      // Waits for what the app lacks shortened (electron/core/timings.ts): a journey waits on
      // the app looking again, not on the product's pace.
      '--timings',
      TEST_TIMINGS,
    ],
    pickUrl,
    'Browser mode',
  );
}

/** The app's waits in the journeys. */
export const TEST_TIMINGS = resolve(import.meta.dirname, 'timings.json');

export interface StartedChild<T> {
  value: T;
  /** The child's process id, for a signal of the caller's own. */
  pid: number;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited and its output ended. */
  stop(): Promise<void>;
  /** What the child wrote to stderr so far (browser mode's log). */
  output(): string;
}

export function startChild<T>(
  command: string,
  args: string[],
  pick: (line: string) => T | undefined,
  what: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StartedChild<T>> {
  const child = spawn(command, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env },
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  let stopping = false;
  let started = false;
  // An end nobody asked for (a crash, or a test's own kill) is told with what the child last
  // said: journeys have failed with the page's connection dropped and no word from the app.
  child.once('exit', (code, signal) => {
    if (!started || stopping) return;
    console.error(
      `${what} (pid ${child.pid}) ended by itself or by a signal of the test's ` +
        `(code ${code}, signal ${signal}); its last output: ${stderr.join('').slice(-1500)}`,
    );
  });
  const stop = () =>
    new Promise<void>((done) => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return done();
      // 'close', not 'exit': the child's last output has been read by then.
      child.once('close', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(`${what} did not start within 30 s. stderr: ${stderr.join('').slice(-2000)}`),
      );
    }, 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const value = pick(line);
      if (value === undefined) return;
      clearTimeout(timer);
      started = true;
      resolveStart({ value, pid: child.pid!, stop, output: () => stderr.join('') });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}. stderr: ${stderr.join('').slice(-2000)}`));
    });
  });
}
