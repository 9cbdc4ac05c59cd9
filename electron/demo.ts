/**
 * Demo mode: the built-in sandbox exchange started in-process with its seeded world and the market
 * simulation on, so every screen has something to show without an account. The demo profile trades
 * with the world's parent trading key; that key belongs to the sandbox, not to the user, so it is
 * kept in a DemoSecretStore (memory) and never written to the OS keychain.
 *
 * The sandbox is loaded only here, by a dynamic import, when demo mode starts: a profile on a real
 * exchange never loads it (it is a chunk of its own in the built bundle). Only its types are
 * imported statically, and those vanish at build time.
 */
import type { SandboxOptions } from './sandbox';

export const DEMO_PROFILE_NAME = 'Demo';

/** How the demo's sandbox starts: its port, seed, clock, simulation and rate limits. */
export type DemoOptions = Omit<SandboxOptions, 'world'>;

export interface DemoExchange {
  readonly baseUrl: string;
  readonly streamUrl: string;
  readonly parentEmail: string;
  readonly apiKey: string;
  readonly secretKey: string;
  close(): Promise<void>;
}

export async function startDemoExchange(options: DemoOptions = {}): Promise<DemoExchange> {
  const { startSandbox } = await import('./sandbox');
  const sandbox = await startSandbox({ simulation: true, ...options, world: 'demo' });
  try {
    const parent = sandbox.world.accounts.find((account) => account.role === 'parent');
    const tradingKey = parent?.keys.find((key) => key.canTrade);
    if (!parent || !tradingKey) {
      throw new Error('The sandbox world has no parent account with a trading key');
    }
    return {
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
      parentEmail: parent.email,
      apiKey: tradingKey.apiKey,
      secretKey: tradingKey.secretKey,
      close: () => sandbox.close(),
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
