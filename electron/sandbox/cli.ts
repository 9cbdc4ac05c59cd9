import { parseSandboxArgs, SANDBOX_USAGE } from './cli-args';
import { startSandbox, type SandboxOptions } from './index';

/** Starts the sandbox with the options of the command line (cli-args.ts), until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  let options: SandboxOptions | 'help';
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(SANDBOX_USAGE);
    return;
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
