import { describe, expect, it } from 'vitest';
import { devServerUrl } from '../../electron/shell/dev-server';

const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };

describe('the renderer address from the environment', () => {
  it('is honoured by an unpackaged development build', () => {
    expect(devServerUrl({ isPackaged: false, isDevelopmentBuild: true, env })).toBe(
      'http://localhost:5173/',
    );
    expect(
      devServerUrl({
        isPackaged: false,
        isDevelopmentBuild: true,
        env: { ELECTRON_RENDERER_URL: 'http://127.0.0.1:5173/' },
      }),
    ).toBe('http://127.0.0.1:5173/');
  });

  it('is ignored by a packaged app and by a production build run unpackaged', () => {
    expect(devServerUrl({ isPackaged: true, isDevelopmentBuild: true, env })).toBeUndefined();
    expect(devServerUrl({ isPackaged: true, isDevelopmentBuild: false, env })).toBeUndefined();
    expect(devServerUrl({ isPackaged: false, isDevelopmentBuild: false, env })).toBeUndefined();
  });

  it('is ignored unless it is a loopback http(s) address', () => {
    for (const value of [
      'https://evil.example/',
      'http://192.168.1.10:5173/',
      'http://localhost.evil.example/',
      'file:///tmp/index.html',
      'javascript:alert(1)',
      'not a url',
      '',
    ]) {
      expect(
        devServerUrl({
          isPackaged: false,
          isDevelopmentBuild: true,
          env: { ELECTRON_RENDERER_URL: value },
        }),
        value,
      ).toBeUndefined();
    }
    expect(devServerUrl({ isPackaged: false, isDevelopmentBuild: true, env: {} })).toBeUndefined();
  });
});
