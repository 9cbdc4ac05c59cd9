/**
 * `npm run bench [-- NAME...]`: runs every bench/*.bench.ts (or those whose figure names start
 * with a NAME given) and prints one JSON line per figure.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench } from './figure';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));

async function main(): Promise<void> {
  const files = readdirSync(here)
    .filter((file) => file.endsWith('.bench.ts'))
    .sort();
  let failed = 0;
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { benches: Bench[] };
    for (const bench of mod.benches) {
      if (wanted.length > 0 && !wanted.some((name) => bench.name.startsWith(name))) continue;
      try {
        for (const fig of await bench.run()) {
          process.stdout.write(JSON.stringify(fig) + '\n');
          if (!fig.ok) failed++;
        }
      } catch (error) {
        failed++;
        process.stderr.write(`bench ${bench.name} failed: ${String(error)}\n`);
      }
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
