/**
 * Browser mode's bridge transport: calls and events over the host's WebSocket (/bridge).
 * Calls made before the socket is open wait for it; a dropped socket reconnects with back-off.
 * A call already sent when the socket drops is reported as 'unknown-outcome' (the host may have
 * acted on it), never silently retried.
 */
import { backoffDelay } from '../../../shared/backoff';
import type { CallOutcome } from '../../../shared/contract';
import {
  bridgePath,
  bridgeProtocols,
  maxCallBytes,
  utf8Length,
  type BridgeTransport,
  type WireCall,
} from '../../../shared/bridge-client';

/** The part of the WebSocket API the transport uses (the browser's, or `ws` in Node tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface WsTransportOptions {
  /** ws://host:port/bridge */
  url: string;
  /** This run's token, offered in every handshake (see bridgeProtocols). */
  token: string;
  /** Defaults to the global WebSocket. */
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  /** Back-off before reconnecting, in ms: doubles from `min` up to `max`. */
  reconnectDelay?: { min: number; max: number };
}

export interface WsTransport extends BridgeTransport {
  /** Closes the socket for good; pending calls fail with kind 'network'. */
  close(): void;
}

const OPEN = 1;

/** The bridge's address for a page: same host, /bridge. The token is not part of it. */
export function bridgeUrl(location: { protocol: string; host: string }): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${bridgePath}`;
}

/** Where a reload of the same tab finds the token again: this origin's (and port's) own storage. */
export const tokenStorageKey = 'spotfolio.token';

/** The token in the address browser mode prints (`#token=…`), or undefined. */
export function tokenOfFragment(hash: string): string | undefined {
  return /^#token=([0-9a-f]{16,128})$/.exec(hash)?.[1];
}

export interface PageAddress {
  readonly hash: string;
  readonly pathname: string;
  readonly search: string;
}

/**
 * The page's token: taken from the address's fragment (#token=…, as browser mode prints it),
 * which is then removed from the address bar so it is not copied, bookmarked or shown; or, after
 * a reload of the same tab, from session storage. That storage belongs to this origin alone (the
 * port included), is never sent over the network, and ends with the tab.
 */
export function takePageToken(
  location: PageAddress,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
): string | null {
  const fromAddress = tokenOfFragment(location.hash);
  if (fromAddress !== undefined) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    try {
      storage?.setItem(tokenStorageKey, fromAddress);
    } catch {
      // Storage may be disabled; the token then lasts as long as the page.
    }
    return fromAddress;
  }
  try {
    return storage?.getItem(tokenStorageKey) ?? null;
  } catch {
    return null;
  }
}

/**
 * The transport of a page opened without a token: every call fails at once and says what to do,
 * instead of waiting on a bridge that would refuse the connection.
 */
export function tokenlessTransport(): BridgeTransport {
  return {
    call: () =>
      Promise.resolve({
        ok: false,
        error: {
          kind: 'auth',
          message:
            'This page has no access to Spotfolio. Open the address Spotfolio printed when it started (it ends with #token=…).',
        },
      }),
    subscribe: () => () => undefined,
  };
}

export function createWsTransport(options: WsTransportOptions): WsTransport {
  const createSocket =
    options.createSocket ??
    ((url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SocketLike);
  const protocols = bridgeProtocols(options.token);
  const delays = options.reconnectDelay ?? { min: 250, max: 5000 };
  const waiting: { message: string; id: number }[] = [];
  const pending = new Map<number, (outcome: CallOutcome<unknown>) => void>();
  const sent = new Set<number>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  let nextId = 1;
  let socket: SocketLike | null = null;
  /** Reconnects since the socket was last open: the wait doubles with each, up to the max. */
  let failures = 0;
  let closed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  const settle = (id: number, outcome: CallOutcome<unknown>) => {
    const resolve = pending.get(id);
    if (!resolve) return;
    pending.delete(id);
    sent.delete(id);
    resolve(outcome);
  };

  const flush = () => {
    while (socket && socket.readyState === OPEN && waiting.length > 0) {
      const next = waiting.shift()!;
      if (!pending.has(next.id)) continue;
      socket.send(next.message);
      sent.add(next.id);
    }
  };

  const onMessage = (data: unknown) => {
    if (typeof data !== 'string') return;
    let message: {
      id?: unknown;
      outcome?: CallOutcome<unknown>;
      event?: unknown;
      payload?: unknown;
    };
    try {
      message = JSON.parse(data) as typeof message;
    } catch {
      return;
    }
    if (typeof message.event === 'string') {
      for (const listener of [...listeners]) listener(message.event, message.payload);
      return;
    }
    if (typeof message.id === 'number' && message.outcome) settle(message.id, message.outcome);
  };

  const connect = () => {
    if (closed || socket) return;
    const current = createSocket(options.url, protocols);
    socket = current;
    current.onopen = () => {
      failures = 0;
      flush();
    };
    current.onmessage = (event) => onMessage(event.data);
    current.onerror = () => undefined;
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      // The host may have run these before the socket dropped: say so instead of guessing.
      for (const id of [...sent]) {
        settle(id, {
          ok: false,
          error: {
            kind: 'unknown-outcome',
            message:
              event.code === 1009
                ? 'The request was too large for the app.'
                : 'The connection to Spotfolio dropped before it answered; check before trying again.',
          },
        });
      }
      if (closed) return;
      const wait = backoffDelay(failures++, { firstMs: delays.min, maxMs: delays.max });
      reconnectTimer = setTimeout(() => {
        reconnectTimer = null;
        connect();
      }, wait);
    };
  };

  return {
    call(method, input) {
      if (closed) {
        return Promise.resolve({
          ok: false,
          error: { kind: 'network', message: 'The connection to Spotfolio is closed.' },
        });
      }
      const id = nextId++;
      const call: WireCall = { id, method, input };
      let message: string;
      try {
        message = JSON.stringify(call);
      } catch {
        return Promise.resolve({
          ok: false,
          error: { kind: 'invalid-input', message: 'The input cannot be sent (not plain data).' },
        });
      }
      // The host would close the socket on an oversized message; refuse it here instead.
      if (utf8Length(message) > maxCallBytes) {
        return Promise.resolve({
          ok: false,
          error: {
            kind: 'invalid-input',
            message: `The request is too large (over ${Math.floor(maxCallBytes / 1024)} KB).`,
          },
        });
      }
      return new Promise<CallOutcome<unknown>>((resolve) => {
        pending.set(id, resolve);
        waiting.push({ id, message });
        connect();
        flush();
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      connect();
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = socket;
      socket = null;
      current?.close(1000, 'closed');
      for (const id of [...pending.keys()]) {
        settle(id, {
          ok: false,
          error: { kind: 'network', message: 'The connection to Spotfolio is closed.' },
        });
      }
      waiting.length = 0;
    },
  };
}
