/**
 * The app in browser mode in a process of its own, for the live benches: what the user runs
 * (`npm run serve`), except that the keys are kept in memory (the bench machine has no keychain
 * session) and nothing is logged. A bench measuring the app's handling of a fill must not share
 * the app's event loop with the sandbox's matching engine or its own driver: it would measure
 * them too. Prints the address to open (with its token) as its one stdout line.
 *
 * With SPOTFOLIO_LOOP_LAG_FILE set, it watches its own event loop's delay: each SIGUSR2 writes
 * the delays seen since the last one (ms) to that file, then starts counting afresh.
 *
 *   tsx bench/app-process.ts DATA_DIR
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../electron/app';
import { TRADE_READER_SOURCE } from '../electron/ledger';
import { DemoSecretStore } from '../electron/secrets';
import { CHECKPOINT_THREAD_SOURCE } from '../electron/store';
import { startBrowserMode } from '../electron/serve/host';

const repoRoot = resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: tsx bench/app-process.ts DATA_DIR');
  const app = await createApp({
    mode: 'browser',
    dataDir,
    demo: 'off',
    secrets: new DemoSecretStore(),
    log: () => undefined,
    tradeReaderScript: TRADE_READER_SOURCE,
    checkpointScript: CHECKPOINT_THREAD_SOURCE,
  });
  const host = await startBrowserMode({ app, rendererDir: join(repoRoot, 'out/renderer') });
  process.stdout.write(`${host.url}\n`);
  const stop = () => {
    void host
      .close()
      .then(() => app.close())
      .finally(() => process.exit(0));
  };
  const lagFile = process.env.SPOTFOLIO_LOOP_LAG_FILE;
  if (lagFile) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let reports = 0;
    process.on('SIGUSR2', () => {
      const ms = (ns: number) => ns / 1e6;
      reports += 1;
      const report = {
        report: reports,
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
        mean: ms(delay.mean),
        samples: delay.count,
      };
      // Whole or not at all: the bench may read it at any moment.
      writeFileSync(`${lagFile}.part`, JSON.stringify(report));
      renameSync(`${lagFile}.part`, lagFile);
      delay.reset();
    });
  }
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
