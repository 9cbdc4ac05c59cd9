/**
 * Browser mode: the app without Electron. An HTTP server on 127.0.0.1 serves the built renderer,
 * and the same bridge contract runs over a WebSocket at /bridge. Because any local web page (and
 * any DNS-rebound site) can reach a loopback port, every request must name our own Host and come
 * from our own Origin (or none), and the bridge also needs this run's random token.
 *
 * The token never travels in a cookie (cookies ignore ports: every other service on 127.0.0.1
 * would be sent it) nor in a URL the server sees (URLs land in logs). The printed address carries
 * it in the fragment (#token=…), which the browser keeps to itself; the page moves it into memory
 * and offers it as a WebSocket subprotocol value (see tokenProtocolPrefix). The built renderer's
 * files are public, so they are served without it; the bridge refuses any connection without it.
 */
import { inBackground, lineErrorLog } from '../core/background';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { CallOutcome } from '../../shared/contract';
import {
  bridgePath,
  bridgeProtocol,
  maxCallBytes,
  tokenProtocolPrefix,
  type WireCall,
  type WireReply,
} from '../../shared/bridge-client';
import { contentSecurityPolicy } from '../../shared/csp';
import type { BridgeErrorPayload } from '../../shared/types';
import type { Dispatch, LockGate } from '../api/dispatch';
import type { EventListener, SpotfolioApp } from '../app';
import { nextTurn, SystemClock, type Clock } from '../core/clock';
import { contentTypeOf, createReadStream, lookupStatic, readFirstPage } from './static';

export interface BrowserModeLimits {
  /**
   * Calls of one page not yet answered. Each is dispatched as it arrives and answered when done,
   * in whatever order they finish (the replies carry the call's id), so a call waiting on the
   * exchange never holds up a read of the cache behind it; beyond this many a call is refused
   * with 'rate-limited', which bounds what one page can make the host hold.
   */
  maxPendingPerConnection: number;
  /** Pages connected at once. */
  maxConnections: number;
  /** A page that stops reading its events is disconnected past this many unsent bytes. */
  maxBufferedBytes: number;
}

export const defaultLimits: BrowserModeLimits = {
  maxPendingPerConnection: 512,
  maxConnections: 16,
  maxBufferedBytes: 16 * 1024 * 1024,
};

/** The app as the host needs it; its lock, when given, gates every call and event. */
export type HostedApp = Pick<SpotfolioApp, 'handlers' | 'onEvent'> &
  Partial<Pick<SpotfolioApp, 'lock'>>;

export interface BrowserModeOptions {
  /**
   * The app, or the promise of it: given a promise, the host listens and serves the page while the
   * app is still starting, so the browser loads the renderer meanwhile. Calls wait for the app;
   * if it fails to start they answer 'internal'.
   */
  app: HostedApp | Promise<HostedApp>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 or absent: any free port. */
  port?: number;
  /** Loopback only; anything else is refused. */
  host?: '127.0.0.1';
  limits?: Partial<BrowserModeLimits>;
  log?: (line: string) => void;
  /** Default: the system clock. */
  clock?: Clock;
}

export interface BrowserModeHost {
  /** The address to open, token included (in the fragment: #token=…). */
  url: string;
  token: string;
  port: number;
  /**
   * Resolves once a page has been sent index.html and the scripts and styles it names (or when
   * there is no index.html to serve). The command waits for it, briefly, before starting the
   * app: start-up work holds the event loop for a few hundred ms, and a page opened at once
   * should have its files by then so the browser parses them meanwhile.
   */
  pageLoaded: Promise<void>;
  close(): Promise<void>;
}

const loopbackHost = '127.0.0.1';

/** Equal-time comparison of two secrets of any length (hashing first makes lengths equal). */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** The subprotocol values a WebSocket handshake offers (Sec-WebSocket-Protocol, comma-separated). */
function offeredProtocols(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** The token a handshake offers as `spotfolio.token.<token>`, if exactly one is offered. */
export function offeredToken(header: string | string[] | undefined): string | undefined {
  const tokens = offeredProtocols(header)
    .filter((value) => value.startsWith(tokenProtocolPrefix))
    .map((value) => value.slice(tokenProtocolPrefix.length));
  return tokens.length === 1 ? tokens[0] : undefined;
}

function errorOutcome(kind: BridgeErrorPayload['kind'], message: string): CallOutcome<never> {
  return { ok: false, error: { kind, message } };
}

// The start-up error itself stays in the terminal: it may quote paths or the store's contents.
const notStarted = errorOutcome(
  'internal',
  'Spotfolio could not start; the terminal it was started from says why.',
);

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserModeHost> {
  const requestedHost: string = options.host ?? loopbackHost;
  const clock = options.clock ?? new SystemClock();
  if (requestedHost !== loopbackHost) {
    throw new Error(
      `Browser mode listens on ${loopbackHost} only, so other machines cannot reach it (asked for "${requestedHost}")`,
    );
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Port must be an integer from 0 to 65535 (got ${String(port)})`);
  }
  const limits: BrowserModeLimits = { ...defaultLimits, ...options.limits };
  const log = options.log ?? (() => undefined);
  const token = randomBytes(32).toString('hex');
  let boundPort = 0;
  const allowedHosts = () => [`127.0.0.1:${boundPort}`, `localhost:${boundPort}`];
  const allowedOrigins = () => allowedHosts().map((host) => `http://${host}`);
  let csp = '';

  // The first page's files are read ahead and sent from memory: one write each, with no disk
  // reads in between for start-up work to hold up.
  let pageLoadedNow: () => void = () => undefined;
  const pageLoaded = new Promise<void>((resolveLoaded) => (pageLoadedNow = resolveLoaded));
  const unsent = new Set<string>();
  const firstPage = readFirstPage(options.rendererDir).then((files) => {
    for (const file of files.keys()) unsent.add(file);
    if (unsent.size === 0) pageLoadedNow();
    return files;
  });
  const sent = (file: string) => {
    if (unsent.delete(file) && unsent.size === 0) pageLoadedNow();
  };

  const securityHeaders = (): OutgoingHttpHeaders => ({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cache-Control': 'no-store',
  });

  /** Host and Origin checks shared by pages and the WebSocket; null when all pass. */
  const refusal = (
    req: IncomingMessage,
    requireOrigin: boolean,
  ): { status: number; reason: string } | null => {
    const host = req.headers.host ?? '';
    if (!allowedHosts().includes(host.toLowerCase())) {
      return { status: 403, reason: 'This address is not Spotfolio (unexpected Host header).' };
    }
    const origin = req.headers.origin;
    if (origin !== undefined || requireOrigin) {
      if (origin === undefined || !allowedOrigins().includes(origin.toLowerCase())) {
        return { status: 403, reason: 'Requests from other sites are not allowed.' };
      }
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      return { status: 403, reason: 'Requests from other sites are not allowed.' };
    }
    return null;
  };

  /** The bridge's own check: this run's token, offered in the handshake's subprotocols. */
  const tokenRefusal = (req: IncomingMessage): { status: number; reason: string } | null => {
    const presented = offeredToken(req.headers['sec-websocket-protocol']);
    if (presented === undefined || presented === '') {
      return {
        status: 401,
        reason: 'Open the address Spotfolio printed when it started; it includes #token=…',
      };
    }
    if (!secretsEqual(presented, token)) {
      return {
        status: 401,
        reason: 'The token is wrong or from an earlier run. Open the address printed this time.',
      };
    }
    return null;
  };

  const sendText = (res: ServerResponse, status: number, text: string, extra = {}) => {
    res.writeHead(status, {
      ...securityHeaders(),
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      ...extra,
    });
    res.end(res.req.method === 'HEAD' ? undefined : text);
  };

  const handleRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refusal(req, false);
    if (refused) return sendText(res, refused.status, refused.reason);
    // Nothing over plain HTTP changes state: the page is static and calls go over the WebSocket.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(res, 405, 'Only GET and HEAD are served.', { Allow: 'GET, HEAD' });
    }
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const encodedPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    if (encodedPath === bridgePath) {
      return sendText(res, 426, 'The bridge speaks WebSocket.', { Upgrade: 'websocket' });
    }
    const lookup = await lookupStatic(options.rendererDir, encodedPath);
    if (!lookup.found) return sendText(res, lookup.status, lookup.reason);
    const headers: OutgoingHttpHeaders = {
      ...securityHeaders(),
      'Content-Type': contentTypeOf(lookup.file),
      'Content-Length': lookup.size,
    };
    const read = (await firstPage).get(lookup.file);
    const ahead =
      read && read.size === lookup.size && read.mtimeMs === lookup.mtimeMs ? read : null;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return void res.end();
    res.on('finish', () => sent(lookup.file));
    if (ahead) return void res.end(ahead.body);
    const stream = createReadStream(lookup.file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      log(`Browser mode request failed: ${String(error)}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error');
      else res.destroy();
    });
  });
  // Slow or idle clients must not hold sockets forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  // ws and the dispatcher (with the zod schemas of every method) are loaded the turn after the
  // address is printed: the browser fetches the page meanwhile, and opens the bridge only once
  // the page's scripts run.
  const bridgeModules = nextTurn().then(() =>
    Promise.all([import('ws'), import('../api/dispatch')]),
  );
  const wssReady: Promise<WebSocketServer> = bridgeModules.then(
    ([{ WebSocketServer }]) =>
      new WebSocketServer({
        noServer: true,
        // Frames above the contract's limit are refused by ws itself (close code 1009) before
        // they are buffered, so a 10 MB message costs the host nothing but that connection.
        maxPayload: maxCallBytes,
        perMessageDeflate: false,
        clientTracking: true,
        // The answer names the bridge's protocol, never the token value the page offered beside it.
        handleProtocols: (protocols) => (protocols.has(bridgeProtocol) ? bridgeProtocol : false),
      }),
  );
  // Set once loaded: the events forwarded before then have no page to reach.
  let wss: WebSocketServer | undefined;
  wssReady.then(
    (server) => (wss = server),
    () => undefined,
  );

  const refuseUpgrade = (socket: Duplex, status: number, reason: string) => {
    const statusText = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden';
    socket.end(
      `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
    );
    socket.destroy();
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0];
    if (path !== bridgePath) return refuseUpgrade(socket, 404, 'No such endpoint');
    const refused = refusal(req, true) ?? tokenRefusal(req);
    if (refused) return refuseUpgrade(socket, refused.status, refused.reason);
    const upgrade = (server: WebSocketServer) => {
      if (server.clients.size >= limits.maxConnections) {
        return refuseUpgrade(socket, 403, 'Too many Spotfolio pages are open.');
      }
      server.handleUpgrade(req, socket, head, (ws) => serveConnection(ws));
    };
    if (wss) return upgrade(wss);
    inBackground(wssReady.then(upgrade), 'Opening the bridge', lineErrorLog(log));
  });

  const send = (ws: WebSocket, reply: WireReply) => {
    if (ws.readyState !== ws.OPEN) return;
    let text: string;
    try {
      text = JSON.stringify(reply);
    } catch (error) {
      log(`Bridge reply ${String(reply.id)} could not be serialised: ${String(error)}`);
      text = JSON.stringify({
        id: reply.id,
        outcome: errorOutcome('internal', 'The answer could not be sent to the page.'),
      });
    }
    ws.send(text);
  };

  const serveConnection = (ws: WebSocket) => {
    let pending = 0;

    const run = (call: WireCall) => {
      pending++;
      const answered = ready
        .then(
          (dispatch) => dispatch(call.method, call.input),
          () => notStarted,
        )
        .then((outcome) => {
          pending--;
          // A page gone meanwhile is told nothing (send checks the socket is still open).
          send(ws, { id: call.id, outcome });
        });
      inBackground(answered, `Answering ${call.method}`, lineErrorLog(log));
    };

    ws.on('error', (error) => log(`Bridge connection error: ${error.message}`));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        return send(ws, {
          id: null,
          outcome: errorOutcome('invalid-input', 'Send calls as JSON text messages.'),
        });
      }
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return send(ws, {
          id: null,
          outcome: errorOutcome('invalid-input', 'The message is not valid JSON.'),
        });
      }
      const record = (typeof message === 'object' && message !== null ? message : {}) as Record<
        string,
        unknown
      >;
      const id = Number.isSafeInteger(record.id) ? (record.id as number) : null;
      if (id === null || typeof record.method !== 'string') {
        return send(ws, {
          id,
          outcome: errorOutcome(
            'invalid-input',
            'A call must be {"id": integer, "method": string, "input": …}.',
          ),
        });
      }
      const call: WireCall = { id, method: record.method, input: record.input };
      if (pending < limits.maxPendingPerConnection) return run(call);
      send(ws, {
        id,
        outcome: errorOutcome(
          'rate-limited',
          'Too many calls at once from this page; slow down and try again.',
        ),
      });
    });
  };

  let lock: LockGate | undefined;
  const forward: EventListener = (event, payload) => {
    if (!wss || wss.clients.size === 0) return;
    // The app holds data events back while locked; this is the second door, at the transport.
    if (lock?.isLocked() && event !== 'lock.changed') return;
    let text: string;
    try {
      text = JSON.stringify({ event, payload });
    } catch (error) {
      log(`Event ${event} could not be serialised: ${String(error)}`);
      return;
    }
    for (const client of wss.clients) {
      if (client.readyState !== client.OPEN) continue;
      if (client.bufferedAmount > limits.maxBufferedBytes) {
        // A page that stopped reading would otherwise grow the host's memory without bound.
        client.close(1013, 'Events are not being read');
        continue;
      }
      client.send(text);
    }
  };

  let unsubscribe: (() => void) | null = null;
  let stopped = false;
  // Subscribed before the first call is dispatched, so no event after the app's answer is missed.
  const hosted = Promise.resolve(options.app).then((app) => {
    lock = app.lock;
    if (!stopped) unsubscribe = app.onEvent(forward);
    return app;
  });
  const ready: Promise<Dispatch> = Promise.all([hosted, bridgeModules]).then(
    ([app, [, { createDispatcher }]]) =>
      createDispatcher(app.handlers, { log, ...(app.lock ? { lock: app.lock } : {}) }),
  );
  // Whoever started the app reports why it failed; here the calls answer notStarted instead.
  ready.catch(() => undefined);
  const stopEvents = () => {
    stopped = true;
    unsubscribe?.();
    unsubscribe = null;
  };

  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen);
      server.listen(port, loopbackHost, () => {
        server.off('error', rejectListen);
        resolveListen();
      });
    });
  } catch (error) {
    stopEvents();
    throw error;
  }
  server.on('error', (error) => log(`Browser mode server error: ${error.message}`));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('No TCP address bound');
  boundPort = address.port;
  csp = contentSecurityPolicy([`ws://127.0.0.1:${boundPort}`, `ws://localhost:${boundPort}`]);

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${boundPort}/#token=${token}`,
    token,
    port: boundPort,
    pageLoaded,
    close() {
      closing ??= (async () => {
        stopEvents();
        pageLoadedNow();
        const bridge = await wssReady;
        const clients = [...bridge.clients];
        await Promise.all(
          clients.map(
            (client) =>
              new Promise<void>((done) => {
                if (client.readyState === client.CLOSED) return done();
                // A page that does not answer the close handshake promptly is cut off.
                const timer = clock.setTimeout(() => client.terminate(), 1000);
                client.once('close', () => {
                  clock.clearTimeout(timer);
                  done();
                });
                client.close(1001, 'Spotfolio is shutting down');
              }),
          ),
        );
        await new Promise<void>((done) => bridge.close(() => done()));
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
      })();
      return closing;
    },
  };
}
