import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import {
  ipcChannel,
  ipcEventChannel,
  methodNames,
  type SpotfolioBridge,
} from '../../shared/contract';
import { answerIpc, exposed, ipcRenderer, ipcRendererInvocations } from './fake-electron';

await import('../../electron/preload');
const bridge = exposed.get('spotfolio') as SpotfolioBridge;

describe('preload', () => {
  it('exposes only window.spotfolio', () => {
    expect([...exposed.keys()]).toEqual(['spotfolio']);
  });

  it('exposes exactly the contract method names and `on`', () => {
    const names = Object.entries(bridge).flatMap(([key, value]) =>
      typeof value === 'function' ? [key] : Object.keys(value as object).map((m) => `${key}.${m}`),
    );
    expect(names.sort()).toEqual([...methodNames, 'on'].sort());
    for (const name of methodNames) {
      const [ns, method] = name.split('.') as [keyof SpotfolioBridge, string];
      expect(typeof (bridge[ns] as Record<string, unknown>)[method], name).toBe('function');
    }
  });

  it('invokes the method channel and unwraps the outcome', async () => {
    answerIpc(() => ({ ok: true, value: { version: '1' } }));
    expect(await bridge.app.status()).toEqual({ version: '1' });
    expect(ipcRendererInvocations.at(-1)).toEqual([ipcChannel('app.status'), {}]);
  });

  it('rejects with a plain object that keeps kind, code and field across contextBridge', async () => {
    answerIpc(() => ({
      ok: false,
      error: { kind: 'invalid-input', message: 'Bad amount', field: 'amount' },
    }));
    const error = await bridge.funds.list().catch((e: unknown) => e);
    expect(error).toEqual({
      name: 'BridgeCallError',
      kind: 'invalid-input',
      message: 'Bad amount',
      field: 'amount',
    });
    expect(error).not.toBeInstanceOf(Error);
  });

  it('hands listeners the payload only, never the IPC event', () => {
    const seen: unknown[][] = [];
    const off = bridge.on('notification', (...args: unknown[]) => seen.push(args));
    const rawEvent = { sender: 'ipc-renderer-internals', ports: [] };
    ipcRenderer.emit(ipcEventChannel, rawEvent, 'notification', { id: 1 });
    ipcRenderer.emit(ipcEventChannel, rawEvent, 'data.changed', { kinds: [] });
    expect(seen).toEqual([[{ id: 1 }]]);
    off();
    expect(ipcRenderer.handlers.get(ipcEventChannel)).toEqual([]);
  });
});
