/**
 * The hardened window and every security rule of Electron's checklist, kept in one module so a
 * reviewer can read them in one sitting:
 *  - isolation: contextIsolation, sandbox, no Node in the page or its workers/frames, webSecurity,
 *    no insecure content, no <webview>;
 *  - content: a strict CSP on every response (plus app:// serving only out/renderer);
 *  - permissions: every request and check denied (camera, notifications, clipboard, ...);
 *  - navigation: the window never navigates or redirects away; new windows are never created;
 *    https links whose host is allow-listed open in the user's browser, nothing else opens;
 *  - webviews: attaching one is prevented.
 */
import { inBackground, lineErrorLog } from '../core/background';
import {
  BrowserWindow,
  shell,
  type Session,
  type WebContents,
  type WebPreferences,
} from 'electron';
import { desktopContentSecurityPolicy } from '../../shared/csp';

/**
 * Hosts whose https links may open in the user's browser. The app's screens link to no external
 * site today, so the list is empty and every link is refused; add a host when a screen needs one.
 */
export const externalLinkHosts: readonly string[] = [];

export interface WindowSecurity {
  /** True for the app's own pages (app://spotfolio/…, or the dev server in `npm run dev`). */
  isAppUrl(url: string): boolean;
  /** Hosts whose https links open externally. */
  externalHosts?: readonly string[];
  log?: (line: string) => void;
}

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** An https address on the allow-list, with no credentials in it. */
export function isAllowedExternalUrl(url: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    parsed.username === '' &&
    parsed.password === '' &&
    hosts.includes(parsed.hostname.toLowerCase())
  );
}

/** Session-wide rules: CSP on every response, every permission denied. */
export function hardenSession(session: Session, security: WindowSecurity): void {
  const log = security.log ?? (() => undefined);
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'content-security-policy') delete headers[name];
    }
    headers['Content-Security-Policy'] = [desktopContentSecurityPolicy];
    headers['X-Content-Type-Options'] = ['nosniff'];
    callback({ responseHeaders: headers });
  });
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`Denied a permission request: ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}

/** Per-page rules; main.ts applies them to every WebContents the app ever creates. */
/** main.ts hardens every WebContents on creation and the window factory its own; once is enough. */
const hardened = new WeakSet<WebContents>();

export function hardenWebContents(contents: WebContents, security: WindowSecurity): void {
  if (hardened.has(contents)) return;
  hardened.add(contents);
  const log = security.log ?? (() => undefined);
  const hosts = security.externalHosts ?? externalLinkHosts;
  // The renderer is a single page with hash routes: any real navigation is foreign.
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    log(`Blocked navigation to ${url}`);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    log(`Blocked redirect to ${url}`);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('Blocked a <webview>');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url, hosts)) {
      inBackground(shell.openExternal(url), `Opening ${url}`, lineErrorLog(log));
    } else {
      log(`Blocked opening ${url}`);
    }
    return { action: 'deny' };
  });
}

export interface MainWindowOptions extends WindowSecurity {
  preloadPath: string;
  iconPath: string;
  /** What to load: app://spotfolio/index.html (or the dev server). */
  url: string;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Spotfolio',
    icon: options.iconPath,
    backgroundColor: '#0f1115',
    webPreferences: secureWebPreferences(options.preloadPath),
  });
  hardenWebContents(window.webContents, options);
  window.once('ready-to-show', () => window.show());
  inBackground(
    window.loadURL(options.url),
    'Loading the page',
    lineErrorLog(options.log ?? (() => undefined)),
  );
  return window;
}
