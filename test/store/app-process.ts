/**
 * The whole app in a child process (fixtures/app-child.ts), driven through its bridge handlers,
 * so a test can SIGKILL it at a chosen moment and start the app again on the same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundledScript } from '../support/child-script';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../..');

export interface AppProcess {
  process: ChildProcess;
  /** One bridge call; answers in the order sent (the child runs them one at a time). */
  call<T>(method: string, input?: unknown): Promise<T>;
  kill(): Promise<void>;
}

type Keys = Record<string, { apiKey: string; secretKey: string }>;

/**
 * Call at the top of a test file: the child script is bundled for the file's tests
 * (test/support/child-script.ts). The function returned starts the app on a data folder.
 */
export function appProcesses(): (dataDir: string, keys?: Keys) => Promise<AppProcess> {
  const script = bundledScript(join(here, 'fixtures/app-child.ts'));
  return (dataDir, keys = {}) => startAppProcess(script(), dataDir, keys);
}

async function startAppProcess(script: string, dataDir: string, keys: Keys): Promise<AppProcess> {
  // node itself runs the bundled script, so the kill reaches the app's own process.
  const child = spawn(process.execPath, [script, JSON.stringify({ dataDir, keys })], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  // One reader hands each line to the call waiting longest, so calls may overlap.
  void (async () => {
    for (;;) {
      const line = await lines.next();
      if (line.done) return;
      waiting.shift()?.(JSON.parse(line.value) as Record<string, unknown>);
    }
  })();
  const next = () => new Promise<Record<string, unknown>>((resolve) => waiting.push(resolve));
  const ready = await next();
  if (ready.ready !== true)
    throw new Error(`the app process did not start: ${JSON.stringify(ready)}`);
  return {
    process: child,
    async call<T>(method: string, input: unknown = {}) {
      const answer = next();
      child.stdin!.write(`${JSON.stringify({ call: method, input })}\n`);
      const line = await answer;
      if ('error' in line) throw new Error(`${method}: ${JSON.stringify(line.error)}`);
      return line.result as T;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
