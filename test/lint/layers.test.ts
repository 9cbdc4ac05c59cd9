/**
 * The layer rules of eslint.config.js, run through ESLint itself: a forbidden import and an import
 * cycle fail the lint, an import along the layers passes. The fixtures are linted as if they sat
 * in the real folders (lintText with a file path there), importing real modules of the tree.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESLint } from 'eslint';
import { untypedEslint, WITHOUT_CYCLE_RULE } from './untyped-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LAYER_RULES = new Set(['boundaries/dependencies', 'import-x/no-cycle']);

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

/** With the cycle rule, for the cycle fixtures; without it for the import fixtures (see below). */
let eslint: ESLint;
let eslintWithoutCycles: ESLint;

beforeAll(() => {
  eslint = untypedEslint();
  eslintWithoutCycles = untypedEslint(WITHOUT_CYCLE_RULE);
});

/**
 * The layer rules' findings (and any parse error) for `code` linted as the file at `path`. An
 * import fixture is linted without the cycle rule, which would walk the whole tree it imports
 * (~6 s of CPU from cold): the lint of the tree checks that the tree has no cycle.
 */
async function layerFindings(path: string, code: string, linter = eslintWithoutCycles) {
  const [result] = await linter.lintText(code, { filePath: join(root, path) });
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

    beforeAll(() => {
      // no-cycle follows imports through the files on disk, so the cycle is written out.
      folder = mkdtempSync(join(root, 'shared', 'lint-cycle-'));
      writeFileSync(
        join(folder, 'first.ts'),
        "import { second } from './second';\nexport const first = (): number => second() + 1;\n",
      );
      writeFileSync(
        join(folder, 'second.ts'),
        "import { first } from './first';\nexport const second = (): number => (first ? 1 : 0);\n",
      );
    });

    afterAll(() => {
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('reports both files of a two-file cycle', async () => {
      const results = await eslint.lintFiles([relative(root, folder)]);
      const cycles = results.map((result) => ({
        file: relative(folder, result.filePath),
        rules: result.messages.map((message) => message.ruleId),
      }));
      expect(cycles).toEqual([
        { file: 'first.ts', rules: ['import-x/no-cycle'] },
        { file: 'second.ts', rules: ['import-x/no-cycle'] },
      ]);
    });

    it('does not count a type-only import, which the build erases', async () => {
      const findings = await layerFindings(
        relative(root, join(folder, 'second.ts')),
        "import type { first } from './first';\nexport const second = (value: typeof first): number => value();\n",
        eslint,
      );
      expect(findings).toEqual([]);
    });
  });
});
