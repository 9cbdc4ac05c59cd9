/** Shared fixtures of the store tests: temp data folders, a profile, wire-shaped records. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type ProfileInput, type Store, type WithdrawInput } from '../../electron/store';

const dirs: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-store-'));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function profile(id = 'p1', overrides: Partial<ProfileInput> = {}): ProfileInput {
  return {
    id,
    name: `Profile ${id}`,
    baseUrl: 'http://127.0.0.1:1',
    streamUrl: 'ws://127.0.0.1:1',
    apiKeyMasked: 'AbCd…wxyz',
    canTrade: true,
    canWithdraw: false,
    isDemo: false,
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** A fresh store in a temp folder with profile 'p1' (and more ids when given). */
export function freshStore(...profileIds: string[]): Store {
  const { store } = openStore({ dataDir: tempDir() });
  for (const id of profileIds.length > 0 ? profileIds : ['p1']) store.profiles.create(profile(id));
  return store;
}

/** 'YYYY-MM-DD HH:MM:SS' in UTC, the withdraw record's time format. */
export function wireTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function withdraw(overrides: Partial<WithdrawInput> & { id: string }): WithdrawInput {
  return {
    partnerTransfer: false,
    address: `addr-${overrides.id}`,
    amount: '1.5',
    createdAt: '2024-03-01 12:00:00',
    lastUpdated: '2024-03-01 12:05:00',
    coin: 'BTC',
    withdrawOrderId: undefined,
    network: 'BTC',
    status: 0,
    transactionFee: '0.0001',
    failureInfo: '',
    txId: `tx-${overrides.id}`,
    ...overrides,
  };
}
