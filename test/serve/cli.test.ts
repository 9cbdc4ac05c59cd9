import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
      timings: {},
    });
    expect(parseServeArgs(['--port=0', '--data-dir=/tmp/b'], {})).toEqual({
      port: 0,
      dataDir: '/tmp/b',
      timings: {},
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

  describe('--timings FILE', () => {
    const folder = mkdtempSync(join(tmpdir(), 'spotfolio-timings-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      const path = join(folder, name);
      writeFileSync(path, text);
      return path;
    };

    it('sets the waits the file names; the others stay the product’s', () => {
      const path = file('short.json', '{"priceRetryMs": 1000}');
      expect(parseServeArgs(['--timings', path], {}).timings).toEqual({ priceRetryMs: 1000 });
      expect(parseServeArgs([`--timings=${path}`], {}).timings).toEqual({ priceRetryMs: 1000 });
    });

    it('refuses an unknown wait, a wait that is not whole milliseconds, and broken JSON', () => {
      const unknown = file('unknown.json', '{"priceRetry": 1000}');
      expect(() => parseServeArgs(['--timings', unknown], {})).toThrow(
        /--timings .*unknown\.json: the file: .*\(priceRetry\)\. Known waits: priceRetryMs, withdrawalWatchMs/,
      );
      const fraction = file('fraction.json', '{"withdrawalWatchMs": 0.5}');
      expect(() => parseServeArgs(['--timings', fraction], {})).toThrow(
        /fraction\.json: withdrawalWatchMs: /,
      );
      const broken = file('broken.json', '{"priceRetryMs": ');
      expect(() => parseServeArgs(['--timings', broken], {})).toThrow(/--timings .*broken\.json: /);
      expect(() => parseServeArgs(['--timings', join(folder, 'none.json')], {})).toThrow(
        /none\.json: ENOENT/,
      );
    });
  });
});
