/**
 * The preload: exposes window.spotfolio and nothing else. The object is built from the contract
 * (one named function per method, each bound to its own IPC channel) and checked against
 * SpotfolioBridge with `satisfies`, so a method added to the contract appears here by itself.
 * Listeners receive only the event's payload, never Electron's IpcRendererEvent.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge, type BridgeTransport } from '../shared/bridge-client';
import {
  ipcChannel,
  ipcEventChannel,
  type CallOutcome,
  type MethodName,
  type SpotfolioBridge,
} from '../shared/contract';

const ipcTransport: BridgeTransport = {
  call: (method, input) =>
    ipcRenderer.invoke(ipcChannel(method as MethodName), input) as Promise<CallOutcome<unknown>>,
  subscribe(listener) {
    const forward = (_event: unknown, name: unknown, payload: unknown) => {
      if (typeof name === 'string') listener(name, payload);
    };
    ipcRenderer.on(ipcEventChannel, forward);
    return () => void ipcRenderer.removeListener(ipcEventChannel, forward);
  },
};

const bridge = createBridge(ipcTransport, {
  // contextBridge copies only an Error's message into the page; a plain object keeps the
  // typed fields the renderer shows (kind, code, field).
  rejection: (payload) => ({ name: 'BridgeCallError', ...payload }),
}) satisfies SpotfolioBridge;

contextBridge.exposeInMainWorld('spotfolio', bridge);
