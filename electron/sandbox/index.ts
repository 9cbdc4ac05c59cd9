import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Accounts, type SecurityType } from './accounts';
import { AuthTokens } from './auth-tokens';
import { SystemClock, type Clock } from './clock';
import { MatchingEngine } from './engine';
import { SandboxEvents } from './events';
import { formatFixed, parseFixed } from './fixed';
import { Ledger } from './ledger';
import { SeededRandom } from './random';
import { RateLimiter } from './rate-limits';
import { createRequestHandler, FaultInjector } from './server';
import { startMarketSimulation, type Simulation } from './simulation';
import { attachStreamServer } from './streams';
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

export interface SandboxAdmin {
  createAccount(input: { email: string; parentEmail?: string }): {
    accountId: number;
    email: string;
  };
  createApiKey(
    email: string,
    opts?: {
      canTrade?: boolean;
      allowedSecurityTypes?: ('MARKET_DATA' | 'TRADE' | 'USER_DATA')[];
      ipAllowList?: string[];
    },
  ): { apiKey: string; secretKey: string };
  revokeApiKey(apiKey: string): void;
  credit(email: string, asset: string, amount: string): void;
  balances(email: string): { asset: string; free: string; locked: string }[];
  seedWithdrawHistory(
    email: string,
    input: { count: number; fromMs: number; toMs: number; seed?: number },
  ): number;
  requestWithdrawal(
    email: string,
    input: {
      coin: string;
      network: string;
      amount: string;
      address: string;
      withdrawOrderId?: string;
    },
  ): { id: string };
  settleWithdrawal(id: string, outcome: 'success' | 'failed'): void;
  setRateLimits(enabled: boolean): void;
  faults: {
    inject(
      match: { method?: string; path: string },
      fault:
        { kind: 'error-before' | 'error-after'; status?: number } | { kind: 'latency'; ms: number },
      times?: number,
    ): void;
    clear(): void;
    skewClock(ms: number): void;
  };
  dropStreamConnections(): void;
  streamConnectionCount(): number;
}

export interface Sandbox {
  baseUrl: string;
  streamUrl: string;
  port: number;
  clock: Clock;
  world: WorldInfo;
  admin: SandboxAdmin;
  close(): Promise<void>;
}

/** Default pace of the market simulation when it is simply switched on. */
const DEFAULT_SIMULATION_RATE = 4;

/** Starts a complete local exchange (REST + WebSocket) on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? new SystemClock();
  const seed = options.seed ?? 42;
  const host = options.host ?? '127.0.0.1';
  const events = new SandboxEvents();
  const ledger = new Ledger(clock, events);
  const engine = new MatchingEngine(clock, events, ledger, DEMO_MARKETS);
  const accounts = new Accounts(clock, ledger);
  const wallet = new Wallet(clock, ledger, seed);
  const authTokens = new AuthTokens(clock);
  const limiter = new RateLimiter(clock, options.rateLimits ?? true);
  const faults = new FaultInjector();
  const built = buildWorld(options.world ?? 'demo', {
    accounts,
    ledger,
    engine,
    wallet,
    now: clock.now(),
    seed,
  });

  const server = createServer(
    { keepAliveTimeout: 30_000 },
    createRequestHandler({ clock, engine, ledger, accounts, wallet, authTokens, limiter, faults }),
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

  const accountOf = (email: string) => accounts.require(email);
  const admin: SandboxAdmin = {
    createAccount: (input) => {
      const account = accounts.createAccount(input);
      return { accountId: account.id, email: account.email };
    },
    createApiKey: (email, opts = {}) => {
      const key = accounts.createApiKey(accountOf(email).id, {
        ...opts,
        allowedSecurityTypes: opts.allowedSecurityTypes as SecurityType[] | undefined,
      });
      return { apiKey: key.apiKey, secretKey: key.secretKey };
    },
    revokeApiKey: (apiKey) => accounts.revokeApiKey(apiKey),
    credit: (email, asset, amount) => {
      const value = parseFixed(amount);
      if (value === undefined || value <= 0n) throw new Error(`not a positive amount: ${amount}`);
      ledger.credit(accountOf(email).id, asset.toLowerCase(), value);
      ledger.flush();
    },
    balances: (email) =>
      ledger.assetsOf(accountOf(email).id).map(([asset, balance]) => ({
        asset,
        free: formatFixed(balance.free),
        locked: formatFixed(balance.locked),
      })),
    seedWithdrawHistory: (email, input) => wallet.seedWithdrawHistory(accountOf(email).id, input),
    requestWithdrawal: (email, input) => wallet.requestWithdrawal(accountOf(email).id, input),
    settleWithdrawal: (id, outcome) => wallet.settleWithdrawal(id, outcome),
    setRateLimits: (enabled) => {
      limiter.enabled = enabled;
    },
    faults: {
      inject: (match, fault, times) => faults.inject(match, fault, times),
      clear: () => faults.clear(),
      skewClock: (ms) => {
        if (!(clock instanceof SystemClock)) {
          throw new Error('skewClock needs the default SystemClock; move a ManualClock directly');
        }
        clock.skewMs = ms;
      },
    },
    dropStreamConnections: () => streams.dropAll(),
    streamConnectionCount: () => streams.connectionCount(),
  };

  let simulation: Simulation | undefined;
  if (options.simulation) {
    const ratePerSecond =
      options.simulation === true ? DEFAULT_SIMULATION_RATE : options.simulation.ratePerSecond;
    simulation = startMarketSimulation({
      clock,
      random: new SeededRandom(seed + 7),
      engine,
      admin,
      makerAccountId: built.makerAccountId,
      demoEmail: DEMO_PARENT_EMAIL,
      ratePerSecond,
    });
  }

  let closed: Promise<void> | undefined;
  return {
    baseUrl,
    streamUrl,
    port,
    clock,
    world: { baseUrl, streamUrl, accounts: built.accounts },
    admin,
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
}
