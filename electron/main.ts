/**
 * The Electron entry: one instance, the app scheme, the hardened session and window, the IPC
 * bridge, the tray and the menu around the plain-Node app (electron/app.ts). Quitting closes
 * the app (store, streams, sync) before the process exits.
 */
import { inBackground, keepServingOnUnexpectedErrors } from './core/background';
import { app, BrowserWindow, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, type SpotfolioApp } from './app';
import { createDispatcher } from './api/dispatch';
import { createLogger } from './log';
import { devServerUrl } from './shell/dev-server';
import { bindIpc, type IpcBinding } from './shell/ipc';
import { installLockHooks } from './shell/lock';
import { installAppMenu } from './shell/menu';
import { NativeNotifier } from './shell/notifications';
import {
  appEntryUrl,
  appHost,
  appScheme,
  handleAppScheme,
  registerAppScheme,
} from './shell/protocol';
import { createTray, type AppTray } from './shell/tray';
import {
  createMainWindow,
  hardenSession,
  hardenWebContents,
  type WindowSecurity,
} from './shell/window';

const here = dirname(fileURLToPath(import.meta.url));
const logger = createLogger();
// An error nobody caught is logged (through the app's logger once it exists: it knows the secrets
// to strip) and the app keeps running.
keepServingOnUnexpectedErrors((message, error) => (spotfolio?.log ?? logger).error(message, error));

// The same folder name browser mode uses by default (~/.config/Spotfolio on Linux).
app.setName('Spotfolio');
// Everything the app writes (the databases, their -wal/-shm, backups, Chromium's profile) holds
// balances, addresses and history: readable by the user alone, whichever part creates it.
process.umask(0o077);

// `npm run dev` serves the renderer from Vite's dev server; a packaged app or a production build
// never does, whatever the environment says.
const devServer = devServerUrl({
  isPackaged: app.isPackaged,
  isDevelopmentBuild: import.meta.env.DEV,
  env: process.env,
});
const devOrigin = devServer ? new URL(devServer).origin : null;

function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === `${appScheme}:` && parsed.host === appHost) return true;
    return devOrigin !== null && parsed.origin === devOrigin;
  } catch {
    return false;
  }
}

const security: WindowSecurity = { isAppUrl, log: logger.line };

let mainWindow: BrowserWindow | null = null;
let spotfolio: SpotfolioApp | null = null;
let ipc: IpcBinding | null = null;
let tray: AppTray | null = null;
let unsubscribeEvents: (() => void) | null = null;
let removeLockHooks: (() => void) | null = null;

function showWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = createMainWindow({
      ...security,
      preloadPath: join(here, '../preload/preload.cjs'),
      iconPath: join(app.getAppPath(), 'resources/icon.png'),
      url: devServer ?? appEntryUrl,
    });
    mainWindow.on('closed', () => (mainWindow = null));
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

async function start(): Promise<void> {
  handleAppScheme(join(here, '../renderer'));
  hardenSession(session.defaultSession, security);
  spotfolio = await createApp({
    mode: 'desktop',
    dataDir: app.getPath('userData'),
    notifier: new NativeNotifier(showWindow),
    // A plain sink: the app's logger adds the time and level, and redacts the secrets it loads.
    log: (line) => console.log(line),
    // Electron reports a locked screen on macOS and Windows only; on Linux the app follows D-Bus.
    followScreenLock: true,
    // Built beside this bundle (electron.vite.config.ts).
    tradeReaderScript: join(here, 'trade-reader.cjs'),
    checkpointScript: join(here, 'checkpoint-thread.cjs'),
  });
  const opened = spotfolio;
  ipc = bindIpc({
    dispatch: createDispatcher(opened.handlers, { log: opened.log.line, lock: opened.lock }),
    isAppUrl,
    log: opened.log.line,
  });
  const binding = ipc;
  unsubscribeEvents = opened.onEvent((event, payload) =>
    binding.send(
      BrowserWindow.getAllWindows().map((window) => window.webContents),
      event,
      payload,
    ),
  );
  // Without a password there is nothing to lock with; the handler says so and nothing happens.
  const lockNow = (cause: string) =>
    void opened.handlers['lock.lock']({}).catch((error: unknown) =>
      opened.log.line(`Not locked (${cause}): ${String(error)}`),
    );
  installAppMenu({
    isMac: process.platform === 'darwin',
    isPackaged: app.isPackaged,
    onShow: showWindow,
    onLock: () => lockNow('menu'),
  });
  removeLockHooks = installLockHooks({ lock: lockNow, log: opened.log.line });
  tray = createTray({
    iconPath: join(app.getAppPath(), 'resources/tray.png'),
    handlers: opened.handlers,
    onEvent: (listener) => opened.onEvent((event) => listener(event)),
    onShow: showWindow,
    onQuit: () => app.quit(),
    onLock: () => lockNow('tray'),
    log: opened.log.line,
  });
  showWindow();
}

registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  // Another Spotfolio is running; it receives 'second-instance' and comes forward.
  app.quit();
} else {
  app.on('second-instance', () => showWindow());
  // Every WebContents the app ever creates gets the navigation, window and webview rules.
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, security));
  app.on('activate', () => {
    if (spotfolio) showWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    // Close the store and streams first, then quit for real.
    event.preventDefault();
    closed = true;
    const closing = (async () => {
      try {
        unsubscribeEvents?.();
        removeLockHooks?.();
        tray?.destroy();
        ipc?.dispose();
        await spotfolio?.close();
      } catch (error) {
        logger.error('Closing the app failed', error);
      } finally {
        app.quit();
      }
    })();
    inBackground(closing, 'Quitting', logger.error);
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      logger.error('Spotfolio could not start', error);
      app.exit(1);
    });
}
