/**
 * `npm run bench [-- NAME...]`: runs every bench/*.bench.ts (or those whose figure names start
 * with a NAME given) and prints one JSON line per figure.
 *
 * Each bench runs in a Node process of its own (this file again, told which bench by
 * BENCH_ONE): in one process for all, a bench ran on the heap, the garbage and the compiled code
 * the benches before it left behind (the ledger's 100k-trade builds among them), so a figure could
 * depend on which others ran first, and `npm run bench -- NAME` measured something else than the
 * full run.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench } from './figure';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));

async function loadBenches(): Promise<Bench[]> {
  const files = readdirSync(here)
    .filter((file) => file.endsWith('.bench.ts'))
    .sort();
  const benches: Bench[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { benches: Bench[] };
    benches.push(...mod.benches);
  }
  return benches;
}

/** Runs one bench here, printing its figures; false when it failed or missed a target. */
async function runHere(bench: Bench): Promise<boolean> {
  try {
    let ok = true;
    for (const fig of await bench.run()) {
      process.stdout.write(JSON.stringify(fig) + '\n');
      if (!fig.ok) ok = false;
    }
    return ok;
  } catch (error) {
    process.stderr.write(`bench ${bench.name} failed: ${String(error)}\n`);
    return false;
  }
}

/** Runs one bench in a process of its own (the same loader flags as this one's, tsx's). */
function runApart(name: string): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_ONE: name },
    });
    child.once('exit', (code) => done(code === 0));
  });
}

async function main(): Promise<void> {
  const benches = await loadBenches();
  const one = process.env.BENCH_ONE;
  if (one !== undefined) {
    const bench = benches.find((candidate) => candidate.name === one);
    if (!bench) throw new Error(`No bench named ${one}`);
    process.exitCode = (await runHere(bench)) ? 0 : 1;
    // A bench's sockets or timers left open must not keep its process (and the run) waiting.
    process.exit();
  }
  let failed = 0;
  for (const bench of benches) {
    if (wanted.length > 0 && !wanted.some((name) => bench.name.startsWith(name))) continue;
    if (!(await runApart(bench.name))) failed++;
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
