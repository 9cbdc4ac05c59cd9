/**
 * The layer rules of eslint.config.js, run through ESLint itself: a forbidden import fails the
 * lint, an import along the layers passes. The fixtures are linted as if they sat in the real
 * folders (lintText with a file path there), importing real modules of the tree. An import cycle
 * fails oxlint's no-cycle rule (.oxlintrc.json), run on files written out.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESLint } from 'eslint';
import { untypedEslint } from './untyped-eslint';
import { oxlintFindings } from './oxlint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LAYER_RULES = new Set(['boundaries/dependencies']);

/** Modules of the tree the fixtures import; if one moves, this test names it. */
const TARGETS = [
  'electron/api/handlers.ts',
  'electron/store/index.ts',
  'electron/sandbox/index.ts',
  'electron/sandbox/testing/index.ts',
  'electron/exchange/wire.ts',
  'electron/exchange/client.ts',
  'electron/sync/index.ts',
  'electron/session/manager.ts',
  'shared/market.ts',
  'renderer/src/screens/Orders.tsx',
  'renderer/src/screens/PortfolioCharts.tsx',
  'renderer/src/lib/sorting.ts',
];

let eslint: ESLint;

beforeAll(() => {
  eslint = untypedEslint();
});

/** The layer rules' findings (and any parse error) for `code` linted as the file at `path`. */
async function layerFindings(path: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter((message) => message.fatal || (message.ruleId && LAYER_RULES.has(message.ruleId)))
    .map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('the layer rules', () => {
  it('have every module the fixtures import', () => {
    expect(TARGETS.filter((target) => !existsSync(join(root, target)))).toEqual([]);
  });

  describe('fail on an import against the direction', () => {
    const forbidden: [string, string, string][] = [
      [
        'the store importing the api',
        'electron/store/lint-fixture.ts',
        "import { createHandlers } from '../api/handlers';\nexport const handlers = createHandlers;\n",
      ],
      [
        'the lock importing the session it guards',
        'electron/lock/lint-fixture.ts',
        "import { SessionManager } from '../session/manager';\nexport const Session = SessionManager;\n",
      ],
      [
        'transfers importing the session that hands them the client',
        'electron/transfers/lint-fixture.ts',
        "import { SessionManager } from '../session/manager';\nexport const Session = SessionManager;\n",
      ],
      [
        'the exchange client importing the store',
        'electron/exchange/lint-fixture.ts',
        "import { openStore } from '../store';\nexport const open = openStore;\n",
      ],
      [
        'live importing the api',
        'electron/live/lint-fixture.ts',
        "import { createHandlers } from '../api/handlers';\nexport const handlers = createHandlers;\n",
      ],
      [
        'the session importing the api',
        'electron/session/lint-fixture.ts',
        "import { createHandlers } from '../api/handlers';\nexport const handlers = createHandlers;\n",
      ],
      [
        'sync importing the session',
        'electron/sync/lint-fixture-session.ts',
        "import { SessionManager } from '../session/manager';\nexport const manager = SessionManager;\n",
      ],
      [
        'sync importing the sandbox',
        'electron/sync/lint-fixture.ts',
        "import { startSandbox } from '../sandbox';\nexport const start = startSandbox;\n",
      ],
      [
        'demo mode importing the sandbox statically',
        'electron/demo.ts',
        "import { startSandbox } from './sandbox';\nexport const start = startSandbox;\n",
      ],
      [
        'the api importing the sandbox statically',
        'electron/api/lint-fixture.ts',
        "import { startSandbox } from '../sandbox';\nexport const start = startSandbox;\n",
      ],
      [
        'the api importing the sandbox dynamically (only demo mode may)',
        'electron/api/lint-fixture-dynamic.ts',
        "export const load = () => import('../sandbox');\n",
      ],
      [
        "demo mode loading the sandbox's test-only fault injection",
        'electron/demo.ts',
        "export const load = () => import('./sandbox/testing');\n",
      ],
      [
        'the sandbox itself importing its test-only admin surface',
        'electron/sandbox/lint-fixture-admin.ts',
        "import * as testing from './testing';\nexport const admin = testing;\n",
      ],
      [
        'the sandbox importing the exchange client',
        'electron/sandbox/lint-fixture.ts',
        "import { ExchangeClient } from '../exchange/client';\nexport const client = ExchangeClient;\n",
      ],
      [
        'the sandbox importing the wire schemas of the client (it reads the interface on its own)',
        'electron/sandbox/lint-fixture.ts',
        "import * as wire from '../exchange/wire';\nexport const schemas = wire;\n",
      ],
      [
        'the preload importing the main process',
        'electron/preload.ts',
        "import { createHandlers } from './api/handlers';\nexport const handlers = createHandlers;\n",
      ],
      [
        'the renderer importing electron/',
        'renderer/src/lib/lint-fixture.ts',
        "import { openStore } from '../../../electron/store';\nexport const open = openStore;\n",
      ],
      [
        'shared/ importing electron/',
        'shared/lint-fixture.ts',
        "import { openStore } from '../electron/store';\nexport const open = openStore;\n",
      ],
      [
        'a screen importing another screen',
        'renderer/src/screens/LintFixture.tsx',
        "import * as orders from './Orders';\nexport const screen = orders;\n",
      ],
    ];

    it.each(forbidden)('%s', async (_name, path, code) => {
      const findings = await layerFindings(path, code);
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.every((finding) => finding.startsWith('boundaries/dependencies:'))).toBe(
        true,
      );
    });
  });

  describe('pass on an import along the layers', () => {
    const allowed: [string, string, string][] = [
      [
        'the api importing the store and shared/',
        'electron/api/lint-fixture-ok.ts',
        "import { openStore } from '../store';\nimport { isSymbol } from '../../shared/market';\nexport const parts = [openStore, isSymbol];\n",
      ],
      [
        'live importing sync',
        'electron/live/lint-fixture-ok.ts',
        "import * as sync from '../sync';\nexport const parts = sync;\n",
      ],
      [
        'the session importing sync and demo mode, the api importing the session',
        'electron/session/lint-fixture-ok.ts',
        "import * as sync from '../sync';\nimport { DEMO_PROFILE_NAME } from '../demo';\nexport const parts = [sync, DEMO_PROFILE_NAME];\n",
      ],
      [
        'the api importing the session',
        'electron/api/lint-fixture-session.ts',
        "import { SessionManager } from '../session/manager';\nexport const manager = SessionManager;\n",
      ],
      [
        'demo mode loading the sandbox with a dynamic import and naming its types',
        'electron/demo.ts',
        "import type { SandboxOptions } from './sandbox';\nexport const load = (options: SandboxOptions) => import('./sandbox').then((sandbox) => sandbox.startSandbox(options));\n",
      ],
      [
        'a screen loading its own part and the renderer library',
        'renderer/src/screens/Portfolio.tsx',
        "import { compareText } from '../lib/sorting';\nexport const parts = [compareText, () => import('./PortfolioCharts')];\n",
      ],
      [
        'a test importing the sandbox and its test-only surface',
        'test/sandbox/lint-fixture.ts',
        "import { startSandbox } from '../../electron/sandbox';\nimport * as testing from '../../electron/sandbox/testing';\nexport const parts = [startSandbox, testing];\n",
      ],
    ];

    it.each(allowed)('%s', async (_name, path, code) => {
      expect(await layerFindings(path, code)).toEqual([]);
    });
  });

  describe('fail on an import cycle', () => {
    let folder = '';
    const write = (name: string, code: string) => writeFileSync(join(folder, name), code);

    beforeAll(() => {
      // no-cycle follows imports through the files on disk, so the cycle is written out.
      folder = mkdtempSync(join(tmpdir(), 'spotfolio-lint-cycle-'));
      write(
        'first.ts',
        "import { second } from './second';\nexport const first = (): number => second() + 1;\n",
      );
    });

    afterAll(() => {
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('reports both files of a two-file cycle', () => {
      write(
        'second.ts',
        "import { first } from './first';\nexport const second = (): number => (first ? 1 : 0);\n",
      );
      const inFolder = (name: string) => relative(root, join(folder, name));
      expect(oxlintFindings([folder])).toEqual([
        `${inFolder('first.ts')}:1: import(no-cycle)`,
        `${inFolder('second.ts')}:1: import(no-cycle)`,
      ]);
    });

    it('does not count a type-only import, which the build erases', () => {
      write(
        'second.ts',
        "import type { first } from './first';\nexport const second = (value: typeof first): number => value();\n",
      );
      expect(oxlintFindings([folder])).toEqual([]);
    });
  });
});
