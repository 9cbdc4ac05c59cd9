import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, parseServeArgs } from '../../electron/serve/cli';

describe('browser mode command line', () => {
  it('defaults to the OS user data folder the desktop app uses', () => {
    expect(defaultDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/Spotfolio');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe(
      '/cfg/Spotfolio',
    );
    expect(defaultDataDir('darwin', {}, '/Users/ann')).toBe(
      '/Users/ann/Library/Application Support/Spotfolio',
    );
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'x')).toBe(
      join('C:\\Users\\ann\\AppData\\Roaming', 'Spotfolio'),
    );
  });

  it('reads --port and --data-dir, in both spellings, and SPOTFOLIO_DATA_DIR', () => {
    expect(parseServeArgs(['--port', '8080', '--data-dir', '/tmp/a'], {})).toEqual({
      port: 8080,
      dataDir: '/tmp/a',
    });
    expect(parseServeArgs(['--port=0', '--data-dir=/tmp/b'], {})).toEqual({
      port: 0,
      dataDir: '/tmp/b',
    });
    expect(parseServeArgs([], { SPOTFOLIO_DATA_DIR: '/srv/spotfolio' }).dataDir).toBe(
      '/srv/spotfolio',
    );
  });

  it('refuses bad values and unknown options with a clear message', () => {
    expect(() => parseServeArgs(['--port', 'abc'], {})).toThrow('--port must be a number');
    expect(() => parseServeArgs(['--port', '70000'], {})).toThrow('--port must be a number');
    expect(() => parseServeArgs(['--port'], {})).toThrow('--port needs a value');
    expect(() => parseServeArgs(['--host', '0.0.0.0'], {})).toThrow('Unknown option "--host"');
  });
});
