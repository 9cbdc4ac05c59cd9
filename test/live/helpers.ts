/**
 * An app on a fresh data folder with one profile whose private stream is live, recording every
 * event it emits: the start of each live-session test.
 */
import { createApp, type SpotfolioApp } from '../../electron/app';
import type { Clock } from '../../electron/core/clock';
import type { Notifier } from '../../electron/core/notifier';
import type { Sandbox } from '../../electron/sandbox';
import type { EventName, EventPayloads } from '../../shared/contract';
import type { ProfileView } from '../../shared/types';
import { eventually, tempDir, testSecretStore } from '../api/helpers';

export interface LiveApp {
  app: SpotfolioApp;
  profile: ProfileView;
  dataDir: string;
  eventsOf<E extends EventName>(event: E): EventPayloads[E][];
  close(): Promise<void>;
}

export async function startLiveApp(
  sandbox: Sandbox,
  key: { apiKey: string; secretKey: string },
  options: {
    notifier?: Notifier;
    clock?: Clock;
    /** Runs once the profile is added, before waiting for its stream to go live. */
    beforeLive?: (app: SpotfolioApp) => Promise<void>;
  } = {},
): Promise<LiveApp> {
  const dir = tempDir();
  const events: { event: EventName; payload: unknown }[] = [];
  const app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: testSecretStore().store,
    demo: 'off',
    log: () => undefined,
    ...(options.notifier ? { notifier: options.notifier } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  app.onEvent((event, payload) => events.push({ event, payload }));
  const eventsOf = <E extends EventName>(event: E): EventPayloads[E][] =>
    events.filter((e) => e.event === event).map((e) => e.payload as EventPayloads[E]);
  const profile = await app.handlers['profiles.add']({
    name: 'Main',
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
  await options.beforeLive?.(app);
  await eventually('the private stream to go live', () =>
    eventsOf('connection.state').some((e) => e.state === 'live') ? true : undefined,
  );
  return {
    app,
    profile,
    dataDir: dir.path,
    eventsOf,
    async close() {
      await app.close();
      dir.remove();
    },
  };
}
