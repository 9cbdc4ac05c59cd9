/**
 * `npm run dev` serves the renderer from Vite's dev server and names it in ELECTRON_RENDERER_URL.
 * Only a development build that is not packaged honours that variable: in anything shipped, an
 * environment variable must not be able to point the window, and with it the bridge to the app
 * and the user's keys, at another page. Even then the address must be a loopback http(s) one.
 */

export interface DevServerContext {
  /** Electron's app.isPackaged. */
  isPackaged: boolean;
  /** The bundler's import.meta.env.DEV: true only in `electron-vite dev` builds. */
  isDevelopmentBuild: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The dev server's address to load instead of app://, or undefined to load the built app. */
export function devServerUrl(context: DevServerContext): string | undefined {
  if (context.isPackaged || !context.isDevelopmentBuild) return undefined;
  const raw = context.env.ELECTRON_RENDERER_URL;
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!loopbackHosts.has(url.hostname)) return undefined;
  return url.href;
}
