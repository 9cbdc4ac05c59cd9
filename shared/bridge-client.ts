/**
 * The renderer-side bridge, derived from the contract: one named function per method and a typed
 * `on` for events, over any transport (Electron IPC in the preload, a WebSocket in browser mode).
 * Also the wire format browser mode speaks over its WebSocket.
 */
import {
  eventNames,
  maxCallBytes,
  methodNames,
  type CallOutcome,
  type EventName,
  type EventPayloads,
  type SpotfolioBridge,
} from './contract';
import type { BridgeErrorPayload, ErrorKind } from './types';

/** How a bridge reaches the main process. `call` resolves with the outcome; it never rejects. */
export interface BridgeTransport {
  call(method: string, input: unknown): Promise<CallOutcome<unknown>>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

/** A failed call as the renderer sees it: the typed error that crossed the bridge. */
export class BridgeCallError extends Error {
  readonly kind: ErrorKind;
  readonly code?: number;
  readonly field?: string;

  constructor(payload: BridgeErrorPayload) {
    super(payload.message);
    this.name = 'BridgeCallError';
    this.kind = payload.kind;
    if (payload.code !== undefined) this.code = payload.code;
    if (payload.field !== undefined) this.field = payload.field;
  }
}

export interface BridgeOptions {
  /**
   * What a failed call rejects with. The default is a BridgeCallError. The preload passes a
   * function returning a plain object instead, because Electron's contextBridge drops custom
   * properties (kind, code, field) from Error objects it copies into the page.
   */
  rejection?: (payload: BridgeErrorPayload) => unknown;
}

const knownEvents: ReadonlySet<string> = new Set(eventNames);

export function createBridge(
  transport: BridgeTransport,
  options: BridgeOptions = {},
): SpotfolioBridge {
  const rejection = options.rejection ?? ((payload) => new BridgeCallError(payload));
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let unsubscribeTransport: (() => void) | null = null;

  // One transport subscription shared by every listener, opened on the first `on` and closed
  // when the last listener leaves, so a page with many listeners costs one IPC/WS listener.
  const deliver = (event: string, payload: unknown): void => {
    const forEvent = listeners.get(event);
    if (!forEvent) return;
    for (const listener of [...forEvent]) {
      try {
        listener(payload);
      } catch (error) {
        // One faulty listener must not starve the others; the error still surfaces.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  const bridge: Record<string, unknown> = {};
  for (const name of methodNames) {
    const [namespace, method] = name.split('.') as [string, string];
    const group = (bridge[namespace] ??= {}) as Record<string, unknown>;
    group[method] = async (input?: unknown) => {
      // Methods whose fields are all optional may be called without an argument.
      const outcome = await transport.call(name, input === undefined ? {} : input);
      if (outcome.ok) return outcome.value;
      throw rejection(outcome.error);
    };
  }

  bridge.on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    if (!knownEvents.has(event)) throw new TypeError(`Unknown event "${String(event)}"`);
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function');
    let forEvent = listeners.get(event);
    if (!forEvent) listeners.set(event, (forEvent = new Set()));
    forEvent.add(listener);
    unsubscribeTransport ??= transport.subscribe(deliver);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      forEvent.delete(listener);
      if (forEvent.size === 0) listeners.delete(event);
      if (listeners.size === 0 && unsubscribeTransport) {
        unsubscribeTransport();
        unsubscribeTransport = null;
      }
    };
  };

  return bridge as SpotfolioBridge;
}

// ---- Browser mode's WebSocket wire format ----------------------------------------------------

/** Client -> host: one call. */
export interface WireCall {
  id: number;
  method: string;
  input: unknown;
}

/** Host -> client: the answer to call `id` (null when the message was too broken to read an id). */
export interface WireReply {
  id: number | null;
  outcome: CallOutcome<unknown>;
}

/** Host -> client: an event for every connected page. */
export interface WireEvent<E extends EventName = EventName> {
  event: E;
  payload: EventPayloads[E];
}

export type WireServerMessage = WireReply | WireEvent;

/** The WebSocket path of the bridge. */
export const bridgePath = '/bridge';

/** The WebSocket subprotocol the bridge speaks; the host answers the handshake with it. */
export const bridgeProtocol = 'spotfolio.bridge';

/**
 * Browser mode's per-run token travels in the WebSocket handshake as a second subprotocol value,
 * `spotfolio.token.<hex>`: a header, so it lands in no URL, no access log and no Referer, and
 * unlike a cookie no other service on the same host is ever sent it.
 */
export const tokenProtocolPrefix = 'spotfolio.token.';

/** The subprotocols a page offers: the bridge's, then the one carrying its token. */
export function bridgeProtocols(token: string): string[] {
  return [bridgeProtocol, `${tokenProtocolPrefix}${token}`];
}

/** Close code the host uses when a message is larger than maxCallBytes (RFC 6455 "too big"). */
export const closeCodeTooBig = 1009;

/** The byte length of a UTF-8 string without allocating a buffer (works in Node and browsers). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export { maxCallBytes };
