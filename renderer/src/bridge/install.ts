/**
 * Browser mode: defines window.spotfolio from the WebSocket transport when no preload has
 * defined it (in Electron the preload already has, and this leaves it alone). The token comes
 * from the address the host printed (#token=…, read and then removed from the address bar) or,
 * after a reload, from this tab's session storage; it is offered on the bridge's handshake.
 * No cookie is involved.
 */
import { createBridge } from '../../../shared/bridge-client';
import { bridgeUrl, createWsTransport, takePageToken, tokenlessTransport } from './ws-transport';

const host = window as unknown as { spotfolio?: unknown };
if (host.spotfolio === undefined) {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    // Reading sessionStorage throws where storage is blocked; the token then lives in memory only.
  }
  const token = takePageToken(window.location, window.history, storage);
  const transport = token
    ? createWsTransport({ url: bridgeUrl(window.location), token })
    : tokenlessTransport();
  const bridge = createBridge(transport);
  // Not writable: page code cannot swap the bridge for another object.
  Object.defineProperty(window, 'spotfolio', {
    value: Object.freeze(bridge),
    writable: false,
    configurable: false,
    enumerable: true,
  });
}
