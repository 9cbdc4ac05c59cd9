import { startSandbox, type SandboxOptions } from './index';

/**
 * `npm run sandbox -- [--port N] [--seed N] [--no-simulation] [--empty]`: starts the sandbox
 * exchange and prints its WorldInfo as the first stdout line (one JSON object).
 */
function parseArgs(argv: string[]): SandboxOptions {
  const options: SandboxOptions = { simulation: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined || !/^\d+$/.test(next))
        throw new Error(`${arg} needs a non-negative integer`);
      return Number(next);
    };
    if (arg === '--port') options.port = value();
    else if (arg === '--seed') options.seed = value();
    else if (arg === '--no-simulation') options.simulation = false;
    else if (arg === '--no-rate-limits') options.rateLimits = false;
    else if (arg === '--empty') options.world = 'empty';
    else if (arg === '--host') options.host = argv[++i];
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

async function main(): Promise<void> {
  let options: SandboxOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const sandbox = await startSandbox(options);
  process.stdout.write(JSON.stringify(sandbox.world) + '\n');
  process.stderr.write(
    `sandbox exchange listening on ${sandbox.baseUrl} (streams ${sandbox.streamUrl})\n`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: error while closing: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
