/**
 * The sandbox exchange: a complete local exchange (REST under /sapi/v1 and the WebSocket streams)
 * on 127.0.0.1, with a seeded world and, if asked, a market that trades by itself. It stands apart
 * from the app: demo mode loads it with a dynamic import; tests, benches and the sandbox CLI use
 * it too, with the admin surface and fault injection of testing/, which the product never imports.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inTurns, SystemClock, type Clock } from '../core/clock';
import { Accounts } from './accounts';
import { AuthTokens } from './auth-tokens';
import { MatchingEngine } from './engine';
import { SandboxEvents } from './events';
import { Ledger } from './ledger';
import { SeededRandom } from './random';
import { RateLimiter } from './rate-limits';
import { createRequestHandler, type RequestInterceptor } from './server';
import { startMarketSimulation, type Simulation } from './simulation';
import { attachStreamServer, type StreamServer } from './streams/server';
import { Wallet } from './wallet';
import { buildWorld, DEMO_MARKETS, DEMO_PARENT_EMAIL } from './world';

export interface SandboxOptions {
  port?: number;
  host?: string;
  clock?: Clock;
  seed?: number;
  world?: 'demo' | 'empty';
  rateLimits?: boolean;
  simulation?: boolean | { ratePerSecond: number };
  /**
   * How far back (ms before now) the REST klines of an interval reach, e.g. `{ '1m': 7 days }`:
   * an exchange keeping its finest candles for a while only. Unset: every interval to the first trade.
   */
  klineReach?: Record<string, number>;
}

export interface WorldInfo {
  baseUrl: string;
  streamUrl: string;
  accounts: {
    email: string;
    role: 'parent' | 'sub';
    keys: { apiKey: string; secretKey: string; canTrade: boolean }[];
  }[];
}

export interface Sandbox {
  baseUrl: string;
  streamUrl: string;
  port: number;
  clock: Clock;
  world: WorldInfo;
  close(): Promise<void>;
}

/** The sandbox's parts, for the test-only admin surface (testing/) to reach into. */
export interface SandboxParts {
  clock: Clock;
  engine: MatchingEngine;
  accounts: Accounts;
  ledger: Ledger;
  wallet: Wallet;
  limiter: RateLimiter;
  streams: StreamServer;
}

/** What only tests add to a sandbox (see testing/). */
export interface SandboxHooks {
  interceptor?: RequestInterceptor;
}

/** Default pace of the market simulation when it is simply switched on. */
const DEFAULT_SIMULATION_RATE = 4;

/** Starts a complete local exchange (REST + WebSocket) on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return (await launchSandbox(options)).sandbox;
}

/** startSandbox, also giving its parts and taking the test hooks. */
export async function launchSandbox(
  options: SandboxOptions = {},
  hooks: SandboxHooks = {},
): Promise<{ sandbox: Sandbox; parts: SandboxParts }> {
  const clock = options.clock ?? new SystemClock();
  const seed = options.seed ?? 42;
  const host = options.host ?? '127.0.0.1';
  const events = new SandboxEvents();
  const ledger = new Ledger(clock, events);
  const engine = new MatchingEngine(clock, events, ledger, DEMO_MARKETS);
  if (options.klineReach) engine.setKlineReach(options.klineReach);
  const accounts = new Accounts(clock, ledger);
  const wallet = new Wallet(clock, ledger, seed);
  const authTokens = new AuthTokens(clock);
  const limiter = new RateLimiter(clock, options.rateLimits ?? true);
  // In turns of the event loop: demo mode builds it in the app's process (see world.ts).
  const built = await inTurns(
    buildWorld(options.world ?? 'demo', {
      accounts,
      ledger,
      engine,
      wallet,
      now: clock.now(),
      seed,
    }),
  );

  const server = createServer(
    { keepAliveTimeout: 30_000 },
    createRequestHandler({
      clock,
      engine,
      ledger,
      accounts,
      wallet,
      authTokens,
      limiter,
      ...(hooks.interceptor ? { interceptor: hooks.interceptor } : {}),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://${host}:${port}`;
  const streamUrl = `ws://${host}:${port}/ws`;
  const streams = attachStreamServer(server, '/ws', { clock, events, engine, authTokens });

  let simulation: Simulation | undefined;
  if (options.simulation) {
    const ratePerSecond =
      options.simulation === true ? DEFAULT_SIMULATION_RATE : options.simulation.ratePerSecond;
    simulation = startMarketSimulation({
      clock,
      random: new SeededRandom(seed + 7),
      engine,
      ledger,
      wallet,
      makerAccountId: built.makerAccountId,
      demoAccountId: accounts.byEmailAddress(DEMO_PARENT_EMAIL)?.id,
      ratePerSecond,
    });
  }

  let closed: Promise<void> | undefined;
  const sandbox: Sandbox = {
    baseUrl,
    streamUrl,
    port,
    clock,
    world: { baseUrl, streamUrl, accounts: built.accounts },
    close: () => {
      closed ??= (async () => {
        simulation?.stop();
        await streams.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
  return { sandbox, parts: { clock, engine, accounts, ledger, wallet, limiter, streams } };
}
