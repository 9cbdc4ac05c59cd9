/**
 * The composition root: demo mode with no profile (sandbox in-process, labelled Demo, its key kept
 * out of the user's secret store), leaving demo for a real key, resuming after a restart, the
 * first start offering the choice (nothing started), the demo staying listed across restarts, and
 * the keychain being unavailable (a typed error, never a plaintext fallback).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../electron/api/dispatch';
import { createApp, type SpotfolioApp } from '../electron/app';
import { ManualClock } from '../electron/core/clock';
import { startSandbox, type Sandbox } from '../electron/sandbox';
import { DemoSecretStore, KeytarSecretStore } from '../electron/secrets';
import { openStore } from '../electron/store';
import type { ProfileView } from '../shared/types';
import { eventually, folderKeys, tempDir } from './api/helpers';

/** Log lines of these tests are not inspected here (test/api/bridge.test.ts searches them). */
const quiet = (): void => undefined;

describe('demo mode', () => {
  let app: SpotfolioApp;
  let realExchange: Sandbox;
  let dir: ReturnType<typeof tempDir>;
  const userSecrets = new DemoSecretStore();

  beforeAll(async () => {
    dir = tempDir();
    realExchange = await startSandbox({ seed: 41 });
    app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets: userSecrets,
      demo: 'auto',
      sandboxOptions: { seed: 42, simulation: false },
      log: quiet,
    });
  });

  afterAll(async () => {
    await app?.close();
    await realExchange?.close();
    dir?.remove();
  });

  it('starts the sandbox and a Demo profile when there is no profile', async () => {
    const profiles = await app.handlers['profiles.list']({});
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ name: 'Demo', isDemo: true, active: true, canTrade: true });
    const status = await app.handlers['app.status']({});
    expect(status).toMatchObject({ demo: true, activeProfileId: profiles[0]!.id });
    // The sandbox's key is not the user's: it never goes to the user's secret store.
    expect(await userSecrets.list()).toEqual([]);
    const funds = await app.handlers['funds.refresh']({});
    expect(funds.rows.length).toBeGreaterThan(0);
  });

  it('enterDemo returns the running demo profile instead of starting another', async () => {
    const [demo] = await app.handlers['profiles.list']({});
    expect(await app.handlers['profiles.enterDemo']({})).toMatchObject({
      id: demo!.id,
      active: true,
    });
    expect(await app.handlers['profiles.list']({})).toHaveLength(1);
  });

  it('switches to a real key when one is added, and stops the sandbox when demo is removed', async () => {
    const [demo] = await app.handlers['profiles.list']({});
    const parent = realExchange.world.accounts.find((a) => a.role === 'parent')!;
    const key = parent.keys.find((k) => !k.canTrade) ?? parent.keys[0]!;
    const real = await app.handlers['profiles.add']({
      name: 'Real',
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: realExchange.baseUrl,
      streamUrl: realExchange.streamUrl,
    });
    expect(real).toMatchObject({ isDemo: false, active: true, canTrade: key.canTrade });
    expect((await app.handlers['app.status']({})).demo).toBe(false);
    expect(await folderKeys(dir.path, userSecrets).list()).toEqual([real.id]);

    const demoUrl = demo!.baseUrl;
    expect((await fetch(`${demoUrl}/sapi/v1/ping`)).ok).toBe(true);
    await app.handlers['profiles.remove']({ id: demo!.id });
    await expect(fetch(`${demoUrl}/sapi/v1/ping`)).rejects.toThrow();
    const profiles = await app.handlers['profiles.list']({});
    expect(profiles.map((p: ProfileView) => p.id)).toEqual([real.id]);
  });

  it('resumes the real profile after a restart without starting demo mode', async () => {
    const [real] = await app.handlers['profiles.list']({});
    await app.close();
    app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets: userSecrets,
      demo: 'auto',
      sandboxOptions: { seed: 42, simulation: false },
      log: quiet,
    });
    const profiles = await app.handlers['profiles.list']({});
    expect(profiles).toEqual([{ ...real, active: true }]);
    await eventually('funds of the resumed profile', async () => {
      const funds = await app.handlers['funds.list']({});
      return funds.rows.length > 0 ? true : undefined;
    });
  });
});

describe('the first start and the demo across restarts', () => {
  it('offers the choice first, keeps the Demo listed after a restart and restarts its exchange', async () => {
    const dir = tempDir();
    const realExchange = await startSandbox({ seed: 44 });
    const secrets = new DemoSecretStore();
    const open = () =>
      createApp({
        dataDir: dir.path,
        mode: 'browser',
        secrets,
        sandboxOptions: { seed: 45, simulation: false },
        log: quiet,
      });
    let app = await open();
    try {
      // A fresh install starts nothing: the page offers the demo or a key.
      expect(await app.handlers['profiles.list']({})).toEqual([]);
      expect(await app.handlers['app.status']({})).toMatchObject({
        activeProfileId: null,
        demo: false,
      });
      const first = await app.handlers['profiles.enterDemo']({});
      const cached = await eventually('the demo funds fetched', async () => {
        const summary = await app.handlers['portfolio.summary']({});
        return summary.asOf === null ? undefined : summary;
      });
      await app.close();

      // Quit again while the demo's exchange is still being built: the last run's figures stay
      // for the next start (the new demo had none yet).
      app = await open();
      await app.close();

      // Restarted in the demo: the first screen's reads answer from the last run's cache while
      // its exchange is built again (no call waits for the sandbox's world): the same figures,
      // as of when they were fetched.
      app = await open();
      expect(await app.handlers['portfolio.summary']({})).toEqual(cached);
      expect(await app.handlers['app.status']({})).toMatchObject({
        activeProfileId: first.id,
        demo: true,
        connection: 'connecting',
      });
      // Any other call waits for the new exchange: then the Demo is listed once, active, and
      // its exchange runs again.
      await app.handlers['funds.list']({});
      const [demo, ...others] = await app.handlers['profiles.list']({});
      expect(others).toEqual([]);
      expect(demo).toMatchObject({ name: 'Demo', isDemo: true, active: true });
      expect(demo!.id).not.toBe(first.id);
      expect((await app.handlers['app.status']({})).demo).toBe(true);
      expect((await fetch(`${demo!.baseUrl}/sapi/v1/ping`)).ok).toBe(true);
      // The new demo's own figures replace the last run's once its funds are in.
      await eventually('the new demo funds', async () => {
        const summary = await app.handlers['portfolio.summary']({});
        return summary.asOf !== null && summary.asOf > cached.asOf! ? true : undefined;
      });

      // A real key added, then a restart: the real profile resumes, the Demo stays listed.
      const key = realExchange.world.accounts.find((a) => a.role === 'parent')!.keys[0]!;
      const real = await app.handlers['profiles.add']({
        name: 'Real',
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        baseUrl: realExchange.baseUrl,
        streamUrl: realExchange.streamUrl,
      });
      await app.close();
      app = await open();
      const listed = await app.handlers['profiles.list']({});
      expect(listed.map((p: ProfileView) => [p.name, p.active])).toEqual([
        ['Demo', false],
        ['Real', true],
      ]);
      expect((await app.handlers['app.status']({})).activeProfileId).toBe(real.id);

      // Switching to it starts its built-in exchange afresh.
      const back = await app.handlers['profiles.activate']({
        id: listed.find((p: ProfileView) => p.isDemo)!.id,
      });
      expect(back).toMatchObject({ name: 'Demo', isDemo: true, active: true });
      expect((await fetch(`${back.baseUrl}/sapi/v1/ping`)).ok).toBe(true);
      expect(await app.handlers['profiles.list']({})).toHaveLength(2);
    } finally {
      await app.close();
      await realExchange.close();
      dir.remove();
    }
  });
});

describe('a resumed demo built behind the first screen', () => {
  /** A data folder whose last run ended in the demo, its funds fetched. */
  async function demoDataDir(dir: string, secrets: DemoSecretStore): Promise<string> {
    const app = await createApp({
      dataDir: dir,
      mode: 'browser',
      secrets,
      demo: 'auto',
      sandboxOptions: { seed: 46, simulation: false },
      log: quiet,
    });
    try {
      const [demo] = await app.handlers['profiles.list']({});
      await eventually('the demo funds fetched', async () => {
        const summary = await app.handlers['portfolio.summary']({});
        return summary.asOf === null ? undefined : true;
      });
      return demo!.id;
    } finally {
      await app.close();
    }
  }

  /** The new demo is being built once a Demo other than the last run's is listed. */
  const newDemoListed = (app: SpotfolioApp, standIn: string) =>
    eventually('the new demo listed', async () => {
      const profiles = await app.handlers['profiles.list']({});
      return profiles.some((p: ProfileView) => p.isDemo && p.id !== standIn) ? true : undefined;
    });

  /** A resumed demo's app on a manual clock, its data folder holding the last run's demo. */
  async function withResumedDemo(
    seed: number,
    body: (app: SpotfolioApp, clock: ManualClock, standIn: string) => Promise<void>,
  ): Promise<void> {
    const dir = tempDir();
    const secrets = new DemoSecretStore();
    const standIn = await demoDataDir(dir.path, secrets);
    const clock = new ManualClock();
    const app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets,
      clock,
      sandboxOptions: { seed, simulation: false },
      log: quiet,
    });
    try {
      await body(app, clock, standIn);
    } finally {
      await app.close();
      dir.remove();
    }
  }

  it('begins once the total was answered, with no time passing on the clock', async () => {
    await withResumedDemo(47, async (app, _clock, standIn) => {
      // Before the total is asked for, only the last run's demo is there.
      expect((await app.handlers['profiles.list']({})).map((p: ProfileView) => p.id)).toEqual([
        standIn,
      ]);
      expect((await app.handlers['portfolio.summary']({})).asOf).not.toBeNull();
      await newDemoListed(app, standIn);
    });
  });

  it('begins a second after the start when no page asks for anything', async () => {
    await withResumedDemo(48, async (app, clock, standIn) => {
      clock.advance(1000);
      await newDemoListed(app, standIn);
    });
  });
});

describe('demo mode off', () => {
  it('starts with no profile and answers reads with no-profile', async () => {
    const dir = tempDir();
    const app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets: new DemoSecretStore(),
      demo: 'off',
      log: quiet,
    });
    try {
      expect(await app.handlers['profiles.list']({})).toEqual([]);
      const dispatch = createDispatcher(app.handlers);
      expect(await dispatch('portfolio.summary', {})).toMatchObject({
        ok: false,
        error: { kind: 'no-profile' },
      });
    } finally {
      await app.close();
      dir.remove();
    }
  });
});

describe('keychain unavailable', () => {
  it('reports it in app.status and refuses to add a key, storing nothing', async () => {
    const dir = tempDir();
    const sandbox = await startSandbox({ seed: 43 });
    const secrets = new KeytarSecretStore({
      service: 'Spotfolio-test-unavailable',
      loadKeytar: () => Promise.reject(new Error('keytar is not installed')),
    });
    const app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets,
      demo: 'off',
      log: quiet,
    });
    try {
      const status = await app.handlers['app.status']({});
      expect(status.keychain.available).toBe(false);
      expect(status.keychain.message).toMatch(/keychain/i);
      const key = sandbox.world.accounts.find((a) => a.role === 'parent')!.keys[0]!;
      const dispatch = createDispatcher(app.handlers);
      const outcome = await dispatch('profiles.add', {
        name: 'Main',
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        baseUrl: sandbox.baseUrl,
        streamUrl: sandbox.streamUrl,
      });
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'keychain' } });
      expect(JSON.stringify(outcome)).not.toContain(key.secretKey);
      expect(await app.handlers['profiles.list']({})).toEqual([]);
    } finally {
      await app.close();
      await sandbox.close();
    }
    const { store } = openStore({ dataDir: dir.path });
    expect(store.profiles.list()).toEqual([]);
    store.close();
    dir.remove();
  });
});
