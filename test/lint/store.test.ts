/**
 * The store owns its tables: eslint.config.js forbids the raw connection (store.db) outside
 * electron/store/. Run through ESLint itself: a fixture reaching for store.db elsewhere fails, the
 * same code inside the store passes, and so do the files that used to prepare their own SQL.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESLint } from 'eslint';
import { untypedEslint } from './untyped-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = 'no-restricted-properties';

let eslint: ESLint;

beforeAll(() => {
  eslint = untypedEslint();
});

async function findings(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter((message) => message.fatal || message.ruleId === RULE)
    .map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

const PREPARES = `import type { Store } from '../store';
export const count = (store: Store): unknown =>
  store.db.prepare('SELECT count(*) FROM own_trades').get();
`;
const DESTRUCTURES = `import type { Store } from '../store';
export const raw = (store: Store): unknown => {
  const { db } = store;
  return db.name;
};
`;

describe('store.db outside electron/store/', () => {
  it.each([
    ['a feature preparing SQL on store.db', 'electron/ledger/lint-fixture.ts', PREPARES],
    ['a feature taking the connection apart', 'electron/alerts/lint-fixture.ts', DESTRUCTURES],
    ['a handler preparing SQL', 'electron/api/lint-fixture.ts', PREPARES],
  ])('fails: %s', async (_name, path, code) => {
    const found = await findings(path, code);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((line) => line.startsWith(`${RULE}:`))).toBe(true);
    expect(found[0]).toContain('repository in electron/store/');
  });

  it('passes inside the store, where the repositories live', async () => {
    const inside = PREPARES.replace("'../store'", "'.'");
    expect(await findings('electron/store/lint-fixture.ts', inside)).toEqual([]);
  });

  it('passes on the files that used to reach for store.db', async () => {
    const results = await eslint.lintFiles([
      'electron/ledger/source.ts',
      'electron/alerts/session.ts',
      'electron/store/alerts.ts',
      'electron/store/ledger.ts',
    ]);
    const offending = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === RULE)
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(results.length).toBe(4);
    expect(offending).toEqual([]);
  }, 120_000);
});
