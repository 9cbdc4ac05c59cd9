/** A real record on a fresh data folder with one profile, and an engine over it on a manual clock. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AlertTarget, AlertTiming } from '../../shared/alerts';
import { AlertEngine, type AlertFiring } from '../../electron/alerts/engine';
import { ManualClock } from '../../electron/core/clock';
import { KnownSecrets, type Logger } from '../../electron/core/logger';
import { openStore, type AlertsRepository, type Store } from '../../electron/store';

export const PROFILE_ID = 'profile-1';

/** Keeps what was logged, so a test can say nothing went wrong. */
export function recordingLog(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    line: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (message, error) => errors.push(`${message}: ${String(error)}`),
    secrets: new KnownSecrets(),
  };
}

export interface EngineWorld {
  dir: string;
  store: Store;
  clock: ManualClock;
  repository: AlertsRepository;
  engine: AlertEngine;
  fired: AlertFiring[];
  log: Logger & { errors: string[] };
  /** Closes the store and opens it again with a new engine, as a restart of the app would. */
  restart(): void;
  add(alert: AlertTarget & Partial<AlertTiming>): number;
  close(): void;
}

export function engineWorld(): EngineWorld {
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-alerts-'));
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
  const fired: AlertFiring[] = [];
  const log = recordingLog();
  const open = () => {
    const { store } = openStore({ dataDir: dir });
    const repository = store.alerts;
    const engine = new AlertEngine({
      repository,
      profileId: PROFILE_ID,
      clock,
      log,
      onFire: (firing) => fired.push(firing),
    });
    return { store, repository, engine };
  };
  const first = open();
  first.store.profiles.create({
    id: PROFILE_ID,
    name: 'Main',
    baseUrl: 'http://127.0.0.1:1',
    streamUrl: 'ws://127.0.0.1:1',
    apiKeyMasked: 'abcd…wxyz',
    canTrade: true,
    canWithdraw: true,
    isDemo: false,
    createdAt: clock.now(),
  });
  const world: EngineWorld = {
    dir,
    clock,
    fired,
    log,
    ...first,
    restart() {
      world.engine.flush();
      world.store.close();
      Object.assign(world, open());
      world.engine.reload();
    },
    add(alert) {
      const record = world.repository.create(
        PROFILE_ID,
        { repeat: false, cooldownMinutes: 60, ...alert } as AlertTarget & AlertTiming,
        { lastSide: null, lastValue: null, lastSeenAt: null },
        clock.now(),
      );
      world.engine.applyChange(record.id);
      return record.id;
    },
    close() {
      world.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** A ticker of the all-market stream, as the engine reads it. */
export function tick(symbol: string, price: string, at: number, open24h = price) {
  return { s: symbol, c: price, o: open24h, E: at };
}
