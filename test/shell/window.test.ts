import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import {
  createMainWindow,
  hardenSession,
  hardenWebContents,
  isAllowedExternalUrl,
} from '../../electron/shell/window';
import { desktopContentSecurityPolicy } from '../../shared/csp';
import { FakeBrowserWindow, FakeWebContents, fakeSession, shellCalls } from './fake-electron';

const isAppUrl = (url: string) => url.startsWith('app://spotfolio/');

function preventable() {
  return { preventDefault: vi.fn() };
}

describe('hardened window', () => {
  beforeEach(() => {
    FakeBrowserWindow.created.length = 0;
    shellCalls.length = 0;
  });

  it('shows the window when it is first ready to show, and only then', () => {
    const window = createMainWindow({
      isAppUrl,
      preloadPath: '/app/out/preload/preload.cjs',
      iconPath: '/app/resources/icon.png',
      url: 'app://spotfolio/index.html',
    }) as unknown as FakeBrowserWindow;
    expect(window.shown).toBe(0);
    window.emit('ready-to-show');
    window.emit('ready-to-show');
    expect(window.shown).toBe(1);
    expect(window.handlers.get('ready-to-show')).toEqual([]);
  });

  it('creates the window with every isolation flag of the checklist', () => {
    const window = createMainWindow({
      isAppUrl,
      preloadPath: '/app/out/preload/preload.cjs',
      iconPath: '/app/resources/icon.png',
      url: 'app://spotfolio/index.html',
    }) as unknown as FakeBrowserWindow;
    expect(window.options.webPreferences).toEqual(
      expect.objectContaining({
        preload: '/app/out/preload/preload.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
      }),
    );
    expect(window.loaded).toBe('app://spotfolio/index.html');
    // The window's own contents got the navigation rules too.
    expect(window.webContents.handlers.get('will-navigate')).toHaveLength(1);
    expect(window.webContents.windowOpenHandler).not.toBeNull();
  });

  it('prevents navigation, redirects and webviews', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { isAppUrl });
    for (const [name, url] of [
      ['will-navigate', 'https://evil.example/'],
      ['will-navigate', 'app://spotfolio/other.html'],
      ['will-redirect', 'https://evil.example/'],
      ['will-attach-webview', undefined],
    ] as const) {
      const event = preventable();
      contents.emit(name, event, url);
      expect(event.preventDefault, name).toHaveBeenCalledOnce();
    }
  });

  it('denies every new window and opens only allow-listed https links externally', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { isAppUrl, externalHosts: ['docs.example.com'] });
    const open = (url: string) => contents.windowOpenHandler!({ url });
    for (const url of [
      'https://docs.example.com/guide',
      'http://docs.example.com/guide',
      'https://evil.example/',
      'https://user:pass@docs.example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://spotfolio/index.html',
    ]) {
      expect(open(url), url).toEqual({ action: 'deny' });
    }
    expect(shellCalls).toEqual(['https://docs.example.com/guide']);
  });

  it('opens no link at all with the default (empty) allow-list', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { isAppUrl });
    expect(contents.windowOpenHandler!({ url: 'https://github.com/' })).toEqual({ action: 'deny' });
    expect(shellCalls).toEqual([]);
    expect(isAllowedExternalUrl('not a url', ['github.com'])).toBe(false);
  });

  it('sets the CSP header on every response, replacing any other policy', () => {
    const { session, recorded } = fakeSession();
    hardenSession(session as never, { isAppUrl });
    let headers: Record<string, string[]> = {};
    recorded.headersListener!(
      {
        responseHeaders: {
          'content-security-policy': ['default-src *'],
          'Content-Type': ['text/html'],
        },
      },
      (response) => (headers = response.responseHeaders),
    );
    expect(headers['Content-Security-Policy']).toEqual([desktopContentSecurityPolicy]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['Content-Type']).toEqual(['text/html']);
    expect(headers['X-Content-Type-Options']).toEqual(['nosniff']);
    expect(desktopContentSecurityPolicy).toContain("script-src 'self'");
    expect(desktopContentSecurityPolicy).toContain("object-src 'none'");
    expect(desktopContentSecurityPolicy).not.toContain('unsafe');
  });

  it('denies every permission request and check', () => {
    const { session, recorded } = fakeSession();
    hardenSession(session as never, { isAppUrl });
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read']) {
      const callback = vi.fn();
      recorded.permissionRequest!({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(recorded.permissionCheck!({}, permission, 'app://spotfolio')).toBe(false);
    }
  });
});

describe('hardening the same contents twice', () => {
  it('installs each rule once', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as never, { isAppUrl });
    hardenWebContents(contents as never, { isAppUrl });
    expect(contents.handlers.get('will-navigate')).toHaveLength(1);
    expect(contents.handlers.get('will-redirect')).toHaveLength(1);
    expect(contents.handlers.get('will-attach-webview')).toHaveLength(1);
  });
});
