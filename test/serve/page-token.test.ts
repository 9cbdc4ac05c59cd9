/**
 * How a browser-mode page finds its token: the fragment of the printed address, then removed
 * from the address bar; after a reload, this tab's session storage. A page without one gets a
 * bridge that says what to do instead of waiting.
 */
import { describe, expect, it } from 'vitest';
import {
  takePageToken,
  tokenlessTransport,
  tokenStorageKey,
  type PageAddress,
} from '../../renderer/src/bridge/ws-transport';

const token = '0123456789abcdef'.repeat(4);

function fakeTab(address: PageAddress) {
  const replaced: string[] = [];
  const stored = new Map<string, string>();
  return {
    replaced,
    stored,
    history: {
      state: { kept: true },
      replaceState(state: unknown, _unused: string, url?: string | URL | null) {
        expect(state).toEqual({ kept: true });
        replaced.push(String(url));
      },
    },
    storage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    },
    address,
  };
}

describe('the page token', () => {
  it('is read from #token=…, removed from the address bar and kept for a reload', () => {
    const tab = fakeTab({ hash: `#token=${token}`, pathname: '/', search: '' });
    expect(takePageToken(tab.address, tab.history, tab.storage)).toBe(token);
    expect(tab.replaced).toEqual(['/']);
    expect(tab.replaced.join('')).not.toContain(token);
    expect(tab.stored.get(tokenStorageKey)).toBe(token);

    // The reload: no fragment any more, the tab's storage still holds it.
    const reloaded = fakeTab({ hash: '', pathname: '/', search: '' });
    reloaded.stored.set(tokenStorageKey, token);
    expect(takePageToken(reloaded.address, reloaded.history, reloaded.storage)).toBe(token);
    expect(reloaded.replaced).toEqual([]);
  });

  it('keeps the path and query when it removes the fragment', () => {
    const tab = fakeTab({ hash: `#token=${token}`, pathname: '/index.html', search: '?x=1' });
    expect(takePageToken(tab.address, tab.history, tab.storage)).toBe(token);
    expect(tab.replaced).toEqual(['/index.html?x=1']);
  });

  it('takes no route or malformed value for a token, and leaves such an address alone', () => {
    for (const hash of ['#/withdrawals', '#token=', '#token=xyz', `#token=${token}&x=1`, '']) {
      const tab = fakeTab({ hash, pathname: '/', search: '' });
      expect(takePageToken(tab.address, tab.history, tab.storage), hash).toBeNull();
      expect(tab.replaced, hash).toEqual([]);
    }
  });

  it('lives in memory alone when storage is unavailable or throws', () => {
    const tab = fakeTab({ hash: `#token=${token}`, pathname: '/', search: '' });
    expect(takePageToken(tab.address, tab.history, null)).toBe(token);
    const throwing = {
      getItem: (): string | null => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(takePageToken(tab.address, tab.history, throwing)).toBe(token);
    expect(
      takePageToken({ hash: '', pathname: '/', search: '' }, tab.history, throwing),
    ).toBeNull();
  });

  it('without one, every call fails at once and says which address to open', async () => {
    const transport = tokenlessTransport();
    expect(await transport.call('app.status', {})).toEqual({
      ok: false,
      error: { kind: 'auth', message: expect.stringContaining('#token=') as unknown as string },
    });
    const unsubscribe = transport.subscribe(() => undefined);
    expect(typeof unsubscribe).toBe('function');
  });
});
