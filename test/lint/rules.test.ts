/**
 * The rules of oxlint.config.js that are the project's own, run through oxlint itself:
 * - the layers: a forbidden import fails the lint, an import along the layers passes, and an
 *   import cycle fails oxlint's no-cycle rule;
 * - the store owns its tables: the raw connection (store.db) outside electron/store/ fails;
 * - time goes through the injected clock: a raw timer in electron/ fails (lint/spotfolio-plugin.js);
 * - the ledger's amounts are the one Decimal: a scaled bigint in electron/ledger/ fails (same plugin).
 * The fixtures are linted as if they sat in the real folders, importing real modules of the tree:
 * all of them in one copy of the tree (test/lint/oxlint.ts), each oxlint run there costing a
 * second or two of CPU. The cycle is written out on its own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type Finding, findingsInTree, oxlintFindings, root } from './oxlint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LAYER_RULE = 'boundaries(dependencies)';
const STORE_RULE = 'eslint(no-restricted-properties)';
const TIMER_RULE = 'spotfolio(clock-only-timers)';
const AMOUNT_RULE = 'spotfolio(decimal-amounts)';

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

const FORBIDDEN: [string, string, string][] = [
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

const ALLOWED: [string, string, string][] = [
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

const STORE_FAILING: [string, string, string][] = [
  ['a feature preparing SQL on store.db', 'electron/ledger/lint-fixture-store.ts', PREPARES],
  ['a feature taking the connection apart', 'electron/alerts/lint-fixture.ts', DESTRUCTURES],
  ['a handler preparing SQL', 'electron/api/lint-fixture-store.ts', PREPARES],
];
// Linted as they are, in the copy of the tree where the rule's override holds.
const FORMER = [
  'electron/ledger/source.ts',
  'electron/alerts/session.ts',
  'electron/store/alerts.ts',
  'electron/store/ledger.ts',
].map((path) => ({ path, code: readFileSync(join(root, path), 'utf8') }));
const STORE_INSIDE = {
  path: 'electron/store/lint-fixture.ts',
  code: PREPARES.replace("'../store'", "'.'"),
};

const TIMERS_BAD: [string, string][] = [
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
const TIMER_GOOD =
  "import { sleep, type Clock } from '../core/clock';\n" +
  'export const wait = (clock: Clock) => sleep(clock, 1000);\n' +
  'export const later = (clock: Clock, fn: () => void) => clock.setTimeout(fn, 1000);\n';
const TIMER_RAW = 'export const later = (fn: () => void) => setTimeout(fn, 1000);\n';
const TIMER_FIXTURES = [
  ...TIMERS_BAD.map(([, code], index) => ({
    path: `electron/sync/lint-fixture-${index}.ts`,
    code,
  })),
  { path: 'electron/sync/lint-fixture-good.ts', code: TIMER_GOOD },
  { path: 'electron/core/clock.ts', code: TIMER_RAW },
  { path: 'renderer/src/lib/lint-fixture.ts', code: TIMER_RAW },
];
const AMOUNTS_BAD: [string, string][] = [
  ['a bigint literal', 'export const total = (a: number) => a + Number(10n);\n'],
  ['BigInt()', "export const units = (text: string) => BigInt(text.replace('.', ''));\n"],
  ['the bigint type', 'export type Units = bigint;\n'],
];
const AMOUNT_DECIMAL =
  "import { Decimal } from '../../shared/exact-decimal';\n" +
  'export const total = (a: string, b: string) => new Decimal(a).plus(b);\n';
const AMOUNT_FIXED = 'export type Fixed = bigint;\nexport const ONE: Fixed = 10n ** 18n;\n';
const AMOUNT_FIXTURES = [
  ...AMOUNTS_BAD.map(([, code], index) => ({
    path: `electron/ledger/lint-fixture-${index}.ts`,
    code,
  })),
  { path: 'electron/ledger/lint-fixture-good.ts', code: AMOUNT_DECIMAL },
  { path: 'electron/sandbox/lint-fixture-fixed.ts', code: AMOUNT_FIXED },
];
const FIXTURES = [
  ...[...FORBIDDEN, ...ALLOWED, ...STORE_FAILING].map(([, path, code]) => ({ path, code })),
  STORE_INSIDE,
  ...FORMER,
  ...TIMER_FIXTURES,
  ...AMOUNT_FIXTURES,
];
const at = {
  forbidden: 0,
  allowed: FORBIDDEN.length,
  storeFailing: FORBIDDEN.length + ALLOWED.length,
  storeInside: FORBIDDEN.length + ALLOWED.length + STORE_FAILING.length,
  former: FORBIDDEN.length + ALLOWED.length + STORE_FAILING.length + 1,
  timers: FORBIDDEN.length + ALLOWED.length + STORE_FAILING.length + 1 + FORMER.length,
  amounts:
    FORBIDDEN.length +
    ALLOWED.length +
    STORE_FAILING.length +
    1 +
    FORMER.length +
    TIMER_FIXTURES.length,
};

let results: Finding[][] = [];
beforeAll(async () => {
  results = await findingsInTree(FIXTURES);
}, 120_000);

/** The fixture's findings of `rule` (and any parse error), as `rule: words`. */
function findings(index: number, rule: string): string[] {
  return results[index]!.filter((finding) => finding.rule === 'parse' || finding.rule === rule).map(
    (finding) => `${finding.rule}: ${finding.text}`,
  );
}

describe('the layer rules', () => {
  it('have every module the fixtures import', () => {
    expect(TARGETS.filter((target) => !existsSync(join(root, target)))).toEqual([]);
  });

  it.each(FORBIDDEN.map(([name], index) => [name, at.forbidden + index] as const))(
    'fail on an import against the direction: %s',
    (_name, index) => {
      const found = findings(index, LAYER_RULE);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((finding) => finding.startsWith(`${LAYER_RULE}:`))).toBe(true);
    },
  );

  it.each(ALLOWED.map(([name], index) => [name, at.allowed + index] as const))(
    'pass on an import along the layers: %s',
    (_name, index) => {
      expect(findings(index, LAYER_RULE)).toEqual([]);
    },
  );

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

    it('reports both files of a two-file cycle', async () => {
      write(
        'second.ts',
        "import { first } from './first';\nexport const second = (): number => (first ? 1 : 0);\n",
      );
      const inFolder = (name: string) => relative(root, join(folder, name));
      expect(await oxlintFindings([folder])).toEqual([
        `${inFolder('first.ts')}:1: import(no-cycle)`,
        `${inFolder('second.ts')}:1: import(no-cycle)`,
      ]);
    });

    it('does not count a type-only import, which the build erases', async () => {
      write(
        'second.ts',
        "import type { first } from './first';\nexport const second = (value: typeof first): number => value();\n",
      );
      expect(await oxlintFindings([folder])).toEqual([]);
    });
  });
});

describe('store.db outside electron/store/', () => {
  it.each(STORE_FAILING.map(([name], index) => [name, at.storeFailing + index] as const))(
    'fails: %s',
    (_name, index) => {
      const found = findings(index, STORE_RULE);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((line) => line.startsWith(`${STORE_RULE}:`))).toBe(true);
      expect(found[0]).toContain('repository in electron/store/');
    },
  );

  it('passes inside the store, where the repositories live', () => {
    expect(findings(at.storeInside, STORE_RULE)).toEqual([]);
  });

  it('passes on the files that used to reach for store.db', () => {
    expect(FORMER.map((_, index) => findings(at.former + index, STORE_RULE))).toEqual(
      FORMER.map(() => []),
    );
  });
});

describe('the clock rule', () => {
  TIMERS_BAD.forEach(([what], index) => {
    it(`fails on ${what} in electron/`, () => {
      const found = findings(at.timers + index, TIMER_RULE);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((f) => f.startsWith(TIMER_RULE))).toBe(true);
      expect(found[0]).toContain('injected Clock');
    });
  });

  it('passes the same wait on the injected clock', () => {
    expect(findings(at.timers + TIMERS_BAD.length, TIMER_RULE)).toEqual([]);
  });

  it('lets the clock itself and the page use the real timers', () => {
    expect(findings(at.timers + TIMERS_BAD.length + 1, TIMER_RULE)).toEqual([]);
    expect(findings(at.timers + TIMERS_BAD.length + 2, TIMER_RULE)).toEqual([]);
  });
});

describe('the ledger amount rule', () => {
  AMOUNTS_BAD.forEach(([what], index) => {
    it(`fails on ${what} in electron/ledger/`, () => {
      const found = findings(at.amounts + index, AMOUNT_RULE);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain('Ledger amounts are Decimal');
    });
  });

  it('passes the same sum in Decimal, and scaled bigints in the sandbox', () => {
    expect(findings(at.amounts + AMOUNTS_BAD.length, AMOUNT_RULE)).toEqual([]);
    expect(findings(at.amounts + AMOUNTS_BAD.length + 1, AMOUNT_RULE)).toEqual([]);
  });
});
