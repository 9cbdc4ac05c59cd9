import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import { bindIpc, isTrustedSender, untrustedSenderOutcome } from '../../electron/shell/ipc';
import { ipcChannel, ipcEventChannel, methodNames } from '../../shared/contract';
import { FakeWebContents, ipcMainHandlers } from './fake-electron';

const isAppUrl = (url: string) => url.startsWith('app://spotfolio/');
const appFrame = { url: 'app://spotfolio/index.html', parent: null };

describe('ipcMain binding', () => {
  beforeEach(() => ipcMainHandlers.clear());

  it('registers exactly one channel per contract method and removes them on dispose', () => {
    const binding = bindIpc({ dispatch: async () => ({ ok: true, value: null }), isAppUrl });
    expect([...ipcMainHandlers.keys()].sort()).toEqual(methodNames.map(ipcChannel).sort());
    binding.dispose();
    expect(ipcMainHandlers.size).toBe(0);
  });

  it('dispatches a call from the app page with its method name', async () => {
    const dispatch = vi.fn(async () => ({ ok: true as const, value: 'done' }));
    bindIpc({ dispatch, isAppUrl });
    const handler = ipcMainHandlers.get(ipcChannel('funds.list'))!;
    expect(await handler({ senderFrame: appFrame }, { a: 1 })).toEqual({ ok: true, value: 'done' });
    expect(dispatch).toHaveBeenCalledWith('funds.list', { a: 1 });
  });

  it('refuses calls from a foreign page, a subframe or a gone frame', async () => {
    const dispatch = vi.fn(async () => ({ ok: true as const, value: 'done' }));
    const logged: string[] = [];
    bindIpc({ dispatch, isAppUrl, log: (line) => logged.push(line) });
    const handler = ipcMainHandlers.get(ipcChannel('profiles.add'))!;
    for (const senderFrame of [
      { url: 'https://evil.example/', parent: null },
      { url: 'file:///tmp/x.html', parent: null },
      { url: 'app://spotfolio/index.html', parent: appFrame },
      null,
    ]) {
      expect(await handler({ senderFrame }, {})).toEqual(untrustedSenderOutcome);
    }
    expect(dispatch).not.toHaveBeenCalled();
    expect(logged).toHaveLength(4);
    expect(isTrustedSender(appFrame, isAppUrl)).toBe(true);
  });

  it('sends events only to the app page, as (name, payload) on the event channel', () => {
    const binding = bindIpc({ dispatch: async () => ({ ok: true, value: null }), isAppUrl });
    const app = new FakeWebContents();
    const foreign = new FakeWebContents();
    foreign.mainFrame = { url: 'https://evil.example/' };
    binding.send([app, foreign] as never, 'data.changed', { profileId: null, kinds: ['funds'] });
    expect(app.sent).toEqual([
      [ipcEventChannel, 'data.changed', { profileId: null, kinds: ['funds'] }],
    ]);
    expect(foreign.sent).toEqual([]);
    binding.dispose();
  });
});
