/**
 * Browser mode: defines window.spotfolio from the WebSocket transport when no preload has
 * defined it (in Electron the preload already has, and this leaves it alone). The token comes
 * from the address the host printed (?token=…); without one, the host's HttpOnly cookie set on
 * the first visit authenticates the socket instead.
 */
import { createBridge } from '../../../shared/bridge-client';
import { bridgeUrl, createWsTransport } from './ws-transport';

const host = window as unknown as { spotfolio?: unknown };
if (host.spotfolio === undefined) {
  const bridge = createBridge(createWsTransport({ url: bridgeUrl(window.location) }));
  // Not writable: page code cannot swap the bridge for another object.
  Object.defineProperty(window, 'spotfolio', {
    value: Object.freeze(bridge),
    writable: false,
    configurable: false,
    enumerable: true,
  });
}
