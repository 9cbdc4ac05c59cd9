import type { SandboxOptions } from './index';

/**
 * `npm run sandbox -- [options]`: starts the sandbox exchange and prints its WorldInfo as the
 * first stdout line (one JSON object). `--help` lists the options.
 */
export const SANDBOX_USAGE = `Usage: npm run sandbox -- [options]

Starts the sandbox exchange on 127.0.0.1 and prints its world (accounts, API keys, addresses) as
one JSON line on standard output.

Options:
  --port N            listen on port N (0, the default, picks a free port)
  --host ADDRESS      listen on ADDRESS (default 127.0.0.1)
  --seed N            seed of the demo world and its simulation
  --no-simulation     the market does not trade by itself
  --no-rate-limits    no request weights, order counts or bans
  --empty             only the markets and their maker: no demo accounts or keys
  --help              show this text
`;

export function parseSandboxArgs(argv: string[]): SandboxOptions | 'help' {
  const options: SandboxOptions = { simulation: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined || !/^\d+$/.test(next))
        throw new Error(`${arg} needs a non-negative integer`);
      return Number(next);
    };
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--port') options.port = value();
    else if (arg === '--seed') options.seed = value();
    else if (arg === '--no-simulation') options.simulation = false;
    else if (arg === '--no-rate-limits') options.rateLimits = false;
    else if (arg === '--empty') options.world = 'empty';
    else if (arg === '--host') options.host = argv[++i];
    else throw new Error(`unknown option ${arg} (--help lists the options)`);
  }
  return options;
}
