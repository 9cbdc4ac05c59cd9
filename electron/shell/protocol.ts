/**
 * The app:// scheme the window loads the renderer from (app://spotfolio/index.html).
 *
 * Why not file://: every file:// page shares one opaque origin with the whole disk, so CSP
 * 'self', the IPC sender check and navigation rules cannot tell our page from any other local
 * file, and a compromised renderer could fetch arbitrary files. A privileged custom scheme gives
 * the app its own origin, serves only out/renderer (with a path-traversal guard), and lets us
 * attach the CSP to every response.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { desktopContentSecurityPolicy } from '../../shared/csp';
import { contentTypeOf, lookupStatic } from '../serve/static';

export const appScheme = 'app';
export const appHost = 'spotfolio';
export const appOrigin = `${appScheme}://${appHost}`;
export const appEntryUrl = `${appOrigin}/index.html`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: appScheme,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

/** Answers one app:// request from `rendererDir`; anything outside it is refused. */
export async function serveAppRequest(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  if (url.protocol !== `${appScheme}:` || url.host !== appHost) {
    return new Response('Not found', { status: 404 });
  }
  const rawPath = requestUrl.slice(`${appOrigin}`.length).split(/[?#]/)[0] || '/';
  const lookup = await lookupStatic(rendererDir, rawPath);
  if (!lookup.found) return new Response(lookup.reason, { status: lookup.status });
  const body = await readFile(lookup.file);
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': contentTypeOf(lookup.file),
      'Content-Security-Policy': desktopContentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    },
  });
}

/** Installs the app:// handler on the default session (after ready). */
export function handleAppScheme(rendererDir: string): void {
  protocol.handle(appScheme, (request) => serveAppRequest(rendererDir, request.url));
}
