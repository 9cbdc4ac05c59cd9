/**
 * The clock rule of eslint.config.js, run through ESLint itself: a raw timer in electron/ fails the
 * lint, the same wait on the injected clock passes, and the clock itself may use the real timers.
 * The fixtures are linted as if they sat in the real folders (lintText with a file path there).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESLint } from 'eslint';
import { untypedEslint } from './untyped-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = 'spotfolio/clock-only-timers';

let eslint: ESLint;

beforeAll(() => {
  eslint = untypedEslint();
});

/** The clock rule's findings (and any parse error) for `code` linted as the file at `path`. */
async function timerFindings(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter((message) => message.fatal || message.ruleId === RULE)
    .map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('the clock rule', () => {
  const bad: [string, string][] = [
    ['a raw setTimeout', 'export const later = (fn: () => void) => setTimeout(fn, 1000);\n'],
    [
      'a raw setInterval and its clearInterval',
      'const every = setInterval(() => undefined, 1000);\nclearInterval(every);\n',
    ],
    [
      'a timer read off globalThis',
      'export const later = (fn: () => void) => globalThis.setTimeout(fn, 1000);\n',
    ],
    [
      'the promise timers of node:timers',
      "import { setTimeout as delay } from 'node:timers/promises';\nexport const wait = () => delay(5);\n",
    ],
  ];
  for (const [what, code] of bad) {
    it(`fails on ${what} in electron/`, async () => {
      const findings = await timerFindings('electron/sync/lint-fixture.ts', code);
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.every((f) => f.startsWith(RULE))).toBe(true);
      expect(findings[0]).toContain('injected Clock');
    });
  }

  it('passes the same wait on the injected clock', async () => {
    const code =
      "import { sleep, type Clock } from '../core/clock';\n" +
      'export const wait = (clock: Clock) => sleep(clock, 1000);\n' +
      'export const later = (clock: Clock, fn: () => void) => clock.setTimeout(fn, 1000);\n';
    expect(await timerFindings('electron/sync/lint-fixture.ts', code)).toEqual([]);
  });

  it('lets the clock itself and the page use the real timers', async () => {
    const code = 'export const later = (fn: () => void) => setTimeout(fn, 1000);\n';
    expect(await timerFindings('electron/core/clock.ts', code)).toEqual([]);
    expect(await timerFindings('renderer/src/lib/lint-fixture.ts', code)).toEqual([]);
  });
});
