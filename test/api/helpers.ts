/**
 * Shared pieces of the api suites: temp data folders, the secret store the run uses (the OS
 * keychain when SPOTFOLIO_KEYRING=1, else the in-memory store), a browser-mode bridge client that
 * speaks the WebSocket wire format and records every message, and polling for background work.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../electron/store';
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

export { WireClient, type RecordedEvent } from '../support/wire-client';

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
