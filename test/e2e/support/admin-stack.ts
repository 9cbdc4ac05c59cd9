/**
 * A stack whose sandbox runs inside the test process, so the test reads the exchange's own state
 * through its admin surface (balances, withdrawals) and its public interface (tickers). The app
 * runs as a child in browser mode and reaches the sandbox over real HTTP and WebSocket through a
 * plain TCP relay on a port of its own: taking the relay down is the exchange going away for the
 * app (every connection dropped, new ones refused), bringing it up on the same port is the
 * exchange coming back with the same accounts and keys. The WebSocket address has a relay of its
 * own, so the stream can go away while REST answers. Behind the same relays a fresh world of
 * the same seed is the exchange reset (the same keys, none of what was done since), and the relay
 * on another port is the exchange moved to a new address.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type TestSandbox } from '../../../electron/sandbox/testing';
import { startBrowserMode, type StartedChild } from './child';
import { worldSeed, type Stack, type WorldInfo } from './stack';

export interface AdminStack extends Stack {
  sandbox: TestSandbox;
  /** Brings the exchange back on the same address after stopSandbox. */
  restartSandbox(): Promise<void>;
  /**
   * Takes the exchange's WebSocket address away while its REST interface keeps answering (the
   * stream has a relay of its own): the private stream goes down, REST does not.
   */
  stopStream(): Promise<void>;
  /** Brings the WebSocket address back after stopStream. */
  restartStream(): Promise<void>;
  /**
   * Replaces the exchange with a fresh world of the same seed on the same address: the same
   * accounts and keys, and nothing of what happened since it started (orders, fills, transfers).
   * `sandbox` is the new one afterwards.
   */
  resetSandbox(): Promise<void>;
  /**
   * Moves the exchange to a new port: the old address refuses connections from then on.
   * Resolves with the new REST and stream addresses (also in `world`).
   */
  moveSandbox(): Promise<{ baseUrl: string; streamUrl: string }>;
  /** Stops the app and starts it again on the same data folder; resolves with its new address. */
  restartApp(): Promise<string>;
  /** The exchange's 24h tickers, as it serves them to anyone. */
  tickers(): Promise<PublicTicker[]>;
}

export interface PublicTicker {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  lastPrice: string;
  openPrice: string;
  volume: string;
}

/** A TCP relay from a port of its own to the sandbox's. */
class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  /** The port connections are relayed to; a change applies to new connections. */
  constructor(public target: number) {}

  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: this.target });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function startAdminStack(options: { simulation?: boolean } = {}): Promise<AdminStack> {
  const launch = () =>
    startSandbox({
      port: 0,
      seed: worldSeed(),
      simulation: options.simulation ?? false,
      // The test reads the exchange beside the app: its calls must not spend the app's limits.
      rateLimits: false,
    });
  const sandbox = await launch();
  const relay = new Relay(sandbox.port);
  const streamRelay = new Relay(sandbox.port);
  await relay.up();
  await streamRelay.up();
  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-'));
  let app: StartedChild<string>;
  try {
    app = await startBrowserMode(dataDir);
  } catch (error) {
    await relay.down();
    await streamRelay.down();
    await sandbox.close();
    throw error;
  }
  const world: WorldInfo = {
    ...sandbox.world,
    baseUrl: `http://127.0.0.1:${relay.port}`,
    streamUrl: `ws://127.0.0.1:${streamRelay.port}/ws`,
  };
  const parent = world.accounts.find((a) => a.role === 'parent');
  if (!parent) throw new Error('The sandbox world has no parent account');
  const stack: AdminStack = {
    world,
    url: app.value,
    dataDir,
    parent,
    subs: world.accounts.filter((a) => a.role === 'sub'),
    sandbox,
    stopSandbox: async () => {
      await relay.down();
      await streamRelay.down();
    },
    restartSandbox: async () => {
      await relay.up();
      await streamRelay.up();
    },
    stopStream: () => streamRelay.down(),
    restartStream: () => streamRelay.up(),
    resetSandbox: async () => {
      const fresh = await launch();
      await relay.down();
      await streamRelay.down();
      await stack.sandbox.close();
      stack.sandbox = fresh;
      relay.target = fresh.port;
      streamRelay.target = fresh.port;
      await relay.up();
      await streamRelay.up();
    },
    moveSandbox: async () => {
      await relay.down();
      await streamRelay.down();
      relay.port = 0;
      streamRelay.port = 0;
      await relay.up();
      await streamRelay.up();
      stack.world.baseUrl = `http://127.0.0.1:${relay.port}`;
      stack.world.streamUrl = `ws://127.0.0.1:${streamRelay.port}/ws`;
      return { baseUrl: stack.world.baseUrl, streamUrl: stack.world.streamUrl };
    },
    restartApp: async () => {
      await app.stop();
      app = await startBrowserMode(dataDir);
      stack.url = app.value;
      return app.value;
    },
    tickers: async () => {
      const response = await fetch(`${stack.sandbox.baseUrl}/sapi/v1/tickers/24hr`);
      if (!response.ok) throw new Error(`tickers: HTTP ${response.status}`);
      return (await response.json()) as PublicTicker[];
    },
    close: async () => {
      await app.stop();
      await relay.down();
      await streamRelay.down();
      await stack.sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}
