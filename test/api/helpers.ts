/**
 * Shared pieces of the api suites: temp data folders, the secret store the run uses (the OS
 * keychain when SPOTFOLIO_KEYRING=1, else the in-memory store), a browser-mode bridge client that
 * speaks the WebSocket wire format and records every message, and polling for background work.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { openStore } from '../../electron/store';
import type { CallOutcome, EventName, EventPayloads } from '../../shared/contract';
import { bridgeProtocols } from '../../shared/bridge-client';
import {
  DemoSecretStore,
  KeytarSecretStore,
  KeyVault,
  type Keychain,
  type SecretStore,
} from '../../electron/secrets';

export function tempDir(prefix = 'spotfolio-app-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A renderer folder with just an index page: browser mode needs something to serve. */
export function rendererDir(root: string): string {
  const dir = join(root, 'renderer');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Spotfolio</title>');
  return dir;
}

/** The keychain under test when a keyring session is running, else memory (never on disk). */
export function testSecretStore(): { store: SecretStore & Keychain; kind: 'keychain' | 'memory' } {
  if (process.env.SPOTFOLIO_KEYRING === '1') {
    const service = `Spotfolio-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
    return { store: new KeytarSecretStore({ service }), kind: 'keychain' };
  }
  return { store: new DemoSecretStore(), kind: 'memory' };
}

/**
 * The keys of one data folder as the app sees them: its entries in `keychain` under the install id
 * its record keeps (read with a second connection; the app may hold the first).
 */
export function folderKeys(dataDir: string, keychain: Keychain): KeyVault {
  const { store } = openStore({ dataDir });
  try {
    const installId = store.settings.get<string>('installId');
    if (typeof installId !== 'string') throw new Error(`No install id in the record of ${dataDir}`);
    return new KeyVault({ keychain, installId });
  } finally {
    store.close();
  }
}

export interface RecordedEvent {
  event: EventName;
  payload: unknown;
}

/** What browser mode sends: the answer to a call, or an event. */
type WireAnswer = { id: number; outcome: CallOutcome<unknown> };
type WireEvent = { event: EventName; payload: unknown };

/** A bridge client over browser mode's WebSocket: {id, method, input} -> {id, outcome}, {event, payload}. */
export class WireClient {
  readonly raw: string[] = [];
  readonly events: RecordedEvent[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (outcome: CallOutcome<unknown>) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      const message = JSON.parse(text) as WireAnswer | WireEvent;
      if ('event' in message) this.events.push({ event: message.event, payload: message.payload });
      else this.pending.get(message.id)?.(message.outcome);
    });
  }

  static async connect(port: number, token: string): Promise<WireClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, bridgeProtocols(token), {
      headers: { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`bridge refused the connection: HTTP ${res.statusCode}`)),
      );
    });
    return new WireClient(ws);
  }

  call(method: string, input: unknown = {}): Promise<CallOutcome<unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, (outcome) => {
        this.pending.delete(id);
        resolve(outcome);
      });
      this.ws.send(JSON.stringify({ id, method, input }));
    });
  }

  /** Calls and returns the value; a failed call fails the test with the bridge's error. */
  async ok<T = unknown>(method: string, input: unknown = {}): Promise<T> {
    const outcome = await this.call(method, input);
    if (!outcome.ok) {
      throw new Error(`${method} failed: ${outcome.error.kind}: ${outcome.error.message}`);
    }
    return outcome.value as T;
  }

  eventsOf<E extends EventName>(event: E): EventPayloads[E][] {
    return this.events.filter((e) => e.event === event).map((e) => e.payload as EventPayloads[E]);
  }

  close(): void {
    this.ws.close();
  }
}

/** Polls until `probe` returns a value other than undefined (background sync, live events). */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const DECIMAL = /^-?\d+(\.\d+)?$/;
