/**
 * The lint, run by oxlint (`npm run lint`; CI's static checks): the project's layers, its own rules
 * and the rule sets it keeps, in one pass over the tree with the type-aware rules and the
 * typecheck. The layers' rule is eslint-plugin-boundaries; the clock's and the ledger amounts' are
 * the project's own (lint/spotfolio-plugin.js); all ESLint plugins that oxlint runs as JS plugins;
 * every other rule is oxlint's own. ESLint itself ran the layers until oxlint could: it took ~34 CPU-seconds of a
 * CI run beside oxlint's ~19; this one pass takes ~30.
 * JS config files are read only through `-c` (oxlint looks for .oxlintrc.json or, on a Node that
 * strips types, oxlint.config.ts), so every caller names this file.
 */

/**
 * The layers, lowest first; docs/architecture.md explains them and why the arrows point this way.
 * A folder layer is an element (matched from the repository root); the files at the top of
 * electron/ are one element whose files are told apart by category.
 */
const FOLDER_LAYERS = [
  ['shared', 'shared'],
  ['core', 'electron/core'],
  ['exchange', 'electron/exchange'],
  ['store', 'electron/store'],
  ['secrets', 'electron/secrets'],
  ['pricing', 'electron/pricing'],
  ['sync', 'electron/sync'],
  ['journal', 'electron/journal'],
  ['export', 'electron/export'],
  ['live', 'electron/live'],
  ['ledger', 'electron/ledger'],
  ['alerts', 'electron/alerts'],
  ['market', 'electron/market'],
  ['rules', 'electron/rules'],
  ['orders', 'electron/orders'],
  ['transfers', 'electron/transfers'],
  ['session', 'electron/session'],
  ['lock', 'electron/lock'],
  ['settings', 'electron/settings'],
  ['api', 'electron/api'],
  ['shell', 'electron/shell'],
  ['serve', 'electron/serve'],
  ['sandbox', 'electron/sandbox'],
  ['renderer', 'renderer/src'],
  ['test', 'test'],
  ['bench', 'bench'],
  // Last: whatever sits at the top of electron/ (app.ts, demo.ts, log.ts, main.ts, preload.ts).
  ['electron', 'electron'],
];
const ELEMENTS = FOLDER_LAYERS.map(([type, pattern]) => ({ type, pattern, partialMatch: false }));

const FILES = [
  { category: 'app', pattern: 'electron/app.ts' },
  // Starting demo mode is a step of a session (session/), so demo.ts sits below it.
  { category: 'demo', pattern: 'electron/demo.ts' },
  // The logger strips known secrets from every line, so it sits just above secrets/.
  { category: 'log', pattern: 'electron/log.ts' },
  { category: 'entry', pattern: ['electron/main.ts', 'electron/preload.ts'] },
  { category: 'preload', pattern: 'electron/preload.ts' },
  // A screen is one file or one folder under screens/. Its own parts are named after it
  // (Portfolio.tsx loads PortfolioCharts.tsx); no screen reaches into another.
  { category: 'screen', pattern: 'renderer/src/screens/*.{ts,tsx}', capture: ['screen'] },
  { category: 'screen', pattern: 'renderer/src/screens/*/**', capture: ['screen'] },
];

/** Entity selectors of each layer. */
const LAYER = Object.fromEntries(FOLDER_LAYERS.map(([type]) => [type, [{ element: { type } }]]));
for (const category of ['app', 'demo', 'log']) {
  LAYER[category] = [{ element: { type: 'electron' }, file: { categories: category } }];
}
LAYER.shell.push({ element: { type: 'electron' }, file: { categories: 'entry' } });
const layers = (...names) => names.flatMap((name) => LAYER[name]);

/** What each layer may import, besides its own files. */
const FOUNDATION = ['exchange', 'store', 'secrets', 'log', 'pricing', 'core', 'shared'];
const FEATURES = [
  'demo',
  'sync',
  'live',
  'ledger',
  'alerts',
  'market',
  'journal',
  'export',
  'rules',
  'orders',
  'transfers',
  'lock',
  'settings',
];
const PRODUCT = ['api', 'session', ...FEATURES, ...FOUNDATION];
const MAY_IMPORT = {
  core: ['shared'],
  exchange: ['core', 'shared'],
  store: ['core', 'shared'],
  secrets: ['core', 'shared'],
  log: ['secrets', 'core', 'shared'],
  // Prices of one asset in another, from tickers: arithmetic every feature shares.
  pricing: ['core', 'shared'],
  // live/ may read what sync/ computed; sync/ never reaches for live/. ledger/ and alerts/ build
  // on both.
  sync: FOUNDATION,
  live: ['sync', ...FOUNDATION],
  // The ledger's reports are written in the CSV format of export/.
  ledger: ['sync', 'live', 'export', ...FOUNDATION],
  // An alert's market or asset is checked against what the exchange lists (rules/).
  alerts: ['sync', 'live', 'rules', ...FOUNDATION],
  demo: FOUNDATION,
  // Transfers and orders written to the record before they are sent, and reconciled after.
  journal: FOUNDATION,
  // CSV: the format, and the export of the cached history.
  export: ['sync', ...FOUNDATION],
  // Checks against what the exchange lists (decimals, assets), made before a request is sent.
  rules: FOUNDATION,
  // An order reviewed before it is sent: the market's rules, the funds, the exchange's test.
  orders: ['rules', ...FOUNDATION],
  // Moving funds between the main account and its sub-accounts: checked against what the
  // exchange lists, written to the money journal, told by the live session.
  transfers: ['sync', 'live', 'journal', 'rules', ...FOUNDATION],
  // Market data as the screens ask for it, kept for when the exchange does not answer.
  market: ['sync', ...FOUNDATION],
  // The active profile's session wires a client, sync, the streams, alerts and the journal.
  session: [...FEATURES, ...FOUNDATION],
  // The app lock knows the record, the keychain's vault and core; nothing of the features.
  lock: FOUNDATION,
  // The user's preferences: a new quote asset is checked against what the exchange lists.
  settings: ['rules', ...FOUNDATION],
  api: PRODUCT.slice(1),
  app: PRODUCT,
  shell: ['app', ...PRODUCT],
  serve: ['app', ...PRODUCT],
  sandbox: ['core', 'shared'],
  renderer: ['shared'],
};

const LAYER_POLICIES = [
  // A layer's own files may import each other...
  {
    from: { element: { isUnknown: false } },
    allow: { dependency: { relationship: { to: 'internal' } } },
  },
  // ...except the files at the top of electron/, which are layers of their own.
  {
    from: { element: { type: 'electron' } },
    disallow: { to: { element: { type: 'electron' } } },
  },
  ...Object.entries(MAY_IMPORT).map(([name, allowed]) => ({
    from: layers(name),
    allow: { to: layers(name, ...allowed) },
  })),
  // The desktop window's protocol handler serves the built renderer with browser mode's lookup,
  // a leaf module that imports nothing of ours.
  {
    from: layers('shell'),
    allow: { to: { element: { type: 'serve' }, file: { path: 'electron/serve/static.ts' } } },
  },
  // Demo mode loads the sandbox only when it starts, so a profile on a real exchange never loads
  // it. Type imports are erased from the build, so app and the entry points may name its options.
  {
    from: layers('demo'),
    allow: { to: layers('sandbox'), dependency: { nodeKind: 'dynamic-import' } },
  },
  {
    from: layers('demo', 'app', 'shell', 'serve'),
    allow: { to: layers('sandbox'), dependency: { kind: 'type' } },
  },
  // The preload runs beside the page: it carries the bridge contract, nothing of the main process.
  {
    from: { file: { categories: 'preload' } },
    disallow: { to: { element: { types: { noneOf: ['shared'] } } } },
  },
  // No screen imports another screen.
  {
    from: { file: { categories: 'screen' } },
    disallow: {
      to: {
        file: {
          categories: 'screen',
          captured: { screen: '!{{ from.file.captured.screen }}*' },
        },
      },
    },
  },
  // The sandbox's fault injection and admin surface are for tests: not even demo mode or the rest
  // of the sandbox loads them.
  {
    from: { element: { isUnknown: false } },
    disallow: { to: { file: { path: 'electron/sandbox/testing/**' } } },
  },
  {
    from: { file: { path: 'electron/sandbox/testing/**' } },
    allow: { to: layers('sandbox', ...MAY_IMPORT.sandbox) },
  },
  // Tests and benches drive any part.
  { from: layers('test', 'bench'), allow: { to: { element: { isUnknown: false } } } },
];

/** The files the layer rules check. */
const LAYER_FILES = [
  'electron/**/*.ts',
  'shared/**/*.ts',
  'renderer/**/*.{ts,tsx}',
  'test/**/*.{ts,tsx}',
  'bench/**/*.ts',
];

/** The element types a policy's `from` names, or null if it names none (then any file may match). */
function fromTypes(policy) {
  const selectors = [policy.from].flat();
  if (selectors.some((selector) => selector?.element?.type === undefined)) return null;
  return new Set(selectors.flatMap((selector) => selector.element.type));
}

/**
 * The layer rule matches every import against every policy, and a policy whose `from` does not
 * match costs about as much as one that does. Each layer's files get the policies that can apply
 * to them, those whose `from` names their layer or no layer; the others, which never match them,
 * are left empty, so the outcome is the same and a message's policy index is still the one in
 * LAYER_POLICIES. Files under no layer's folder keep the whole list. The last policy guards the
 * folder: a file there that the rule sees as part of another layer (or of none) would miss its
 * own layer's policies, so its imports fail instead.
 */
const LAYER_OVERRIDES = FOLDER_LAYERS.map(([type, pattern]) => {
  const folder = type === 'electron' ? 'electron/*' : `${pattern}/**`;
  const policies = LAYER_POLICIES.map((policy) => {
    const types = fromTypes(policy);
    return types === null || types.has(type) ? policy : { allow: [] };
  });
  policies.push({
    from: { element: { type: [`!${type}`, null] } },
    disallow: { to: { element: { isUnknown: false } } },
    message: `oxlint.config.js checks the files of ${folder} as the layer ${type}, which this file is not part of: fix FOLDER_LAYERS or LAYER_OVERRIDES.`,
  });
  return {
    files: type === 'electron' ? ['electron/*.ts'] : [`${pattern}/**/*.ts`, `${pattern}/**/*.tsx`],
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkInternals: true, policies }],
    },
  };
});

/**
 * ESLint's and typescript-eslint's recommended sets, as the project kept them under ESLint, each
 * named as oxlint names it (no-octal is left out: oxlint has no such rule, and the modules are
 * strict code, where an octal literal does not parse).
 */
const RECOMMENDED = [
  'for-direction',
  'no-array-constructor',
  'no-async-promise-executor',
  'no-case-declarations',
  'no-compare-neg-zero',
  'no-cond-assign',
  'no-constant-binary-expression',
  'no-constant-condition',
  'no-control-regex',
  'no-debugger',
  'no-delete-var',
  'no-dupe-else-if',
  'no-duplicate-case',
  'no-empty',
  'no-empty-character-class',
  'no-empty-pattern',
  'no-empty-static-block',
  'no-ex-assign',
  'no-extra-boolean-cast',
  'no-fallthrough',
  'no-global-assign',
  'no-invalid-regexp',
  'no-irregular-whitespace',
  'no-loss-of-precision',
  'no-misleading-character-class',
  'no-nonoctal-decimal-escape',
  'no-prototype-builtins',
  'no-regex-spaces',
  'no-self-assign',
  'no-shadow-restricted-names',
  'no-sparse-arrays',
  'no-unexpected-multiline',
  'no-unsafe-finally',
  'no-unsafe-optional-chaining',
  'no-unused-expressions',
  'no-unused-labels',
  'no-unused-private-class-members',
  'no-useless-backreference',
  'no-useless-catch',
  'no-useless-escape',
  'no-var',
  'prefer-const',
  'prefer-rest-params',
  'prefer-spread',
  'require-yield',
  'use-isnan',
  'valid-typeof',
  'typescript/ban-ts-comment',
  'typescript/no-duplicate-enum-values',
  'typescript/no-empty-object-type',
  'typescript/no-explicit-any',
  'typescript/no-extra-non-null-assertion',
  'typescript/no-misused-new',
  'typescript/no-namespace',
  'typescript/no-non-null-asserted-optional-chain',
  'typescript/no-require-imports',
  'typescript/no-this-alias',
  'typescript/no-unnecessary-type-constraint',
  'typescript/no-unsafe-declaration-merging',
  'typescript/no-unsafe-function-type',
  'typescript/no-wrapper-object-types',
  'typescript/prefer-as-const',
  'typescript/prefer-namespace-keyword',
  'typescript/triple-slash-reference',
];

/**
 * Imports some folders may not make. One rule holds them all, and a later override replaces an
 * earlier one's list for the files both match, so each override below lists everything that
 * holds for its files.
 */
const ONLY_THE_SHELL_IMPORTS_ELECTRON = {
  name: 'electron',
  message: 'Only electron/main.ts, electron/preload.ts and electron/shell/ import electron.',
};
// One Decimal, exact for sums and products of amounts (shared/exact-decimal.ts). decimal.js is a
// dev dependency, for tests that compute a figure independently; a value of it in the app would
// round its arithmetic to 20 digits.
const ONE_DECIMAL = {
  name: 'decimal.js',
  message: 'Import Decimal from shared/exact-decimal.ts (exact to the widest amount).',
};
const RENDERER_KNOWS_ONLY_SHARED = {
  group: ['**/electron/**', 'electron', 'better-sqlite3', 'keytar', 'undici', 'ws'],
  message: 'The renderer talks to the main process only over window.spotfolio.',
};
const SHARED_IMPORTS_NOTHING_ELSE = {
  group: ['**/electron/**', '**/renderer/**'],
  message: 'shared/ imports nothing else of the project.',
};
const restrictedImports = (paths, patterns = []) => [
  'no-restricted-imports',
  ['error', { paths, patterns }],
];
const SHELL = ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**'];

export default {
  plugins: ['typescript', 'import', 'react'],
  jsPlugins: ['eslint-plugin-boundaries', './lint/spotfolio-plugin.js'],
  categories: { correctness: 'off' },
  env: { browser: true, node: true, es2024: true },
  settings: {
    'boundaries/elements': ELEMENTS,
    'boundaries/files': FILES,
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    'boundaries/legacy-templates': false,
    'import/resolver': { typescript: { project: 'tsconfig.json' } },
  },
  rules: {
    ...Object.fromEntries(RECOMMENDED.map((rule) => [rule, 'error'])),
    'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    'import/no-cycle': ['error', { ignoreTypes: true }],
    // No forgotten promise (type-aware: oxlint's tsgolint, on TypeScript 7's checker).
    'typescript/no-floating-promises': 'error',
    'typescript/no-misused-promises': 'error',
  },
  overrides: [
    {
      files: ['electron/**/*.ts'],
      rules: { 'typescript/no-floating-promises': ['error', { ignoreVoid: false }] },
    },
    {
      files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
      rules: { 'react/rules-of-hooks': 'error', 'react/exhaustive-deps': 'warn' },
    },
    // The layers: which folder may import which (docs/architecture.md).
    {
      files: LAYER_FILES,
      rules: {
        'boundaries/dependencies': [
          'error',
          { default: 'disallow', checkInternals: true, policies: LAYER_POLICIES },
        ],
      },
    },
    ...LAYER_OVERRIDES,
    {
      files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
      excludeFiles: [...SHELL, 'test/shell/**'],
      rules: Object.fromEntries([restrictedImports([ONLY_THE_SHELL_IMPORTS_ELECTRON])]),
    },
    {
      files: ['electron/**/*.ts', 'shared/**/*.ts'],
      excludeFiles: SHELL,
      rules: Object.fromEntries([
        restrictedImports([ONLY_THE_SHELL_IMPORTS_ELECTRON, ONE_DECIMAL]),
      ]),
    },
    {
      files: SHELL.map((path) => (path.endsWith('**') ? `${path}/*.ts` : path)),
      rules: Object.fromEntries([restrictedImports([ONE_DECIMAL])]),
    },
    {
      files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
      rules: Object.fromEntries([
        restrictedImports(
          [ONLY_THE_SHELL_IMPORTS_ELECTRON, ONE_DECIMAL],
          [RENDERER_KNOWS_ONLY_SHARED],
        ),
      ]),
    },
    {
      files: ['shared/**/*.ts'],
      rules: Object.fromEntries([
        restrictedImports(
          [ONLY_THE_SHELL_IMPORTS_ELECTRON, ONE_DECIMAL],
          [SHARED_IMPORTS_NOTHING_ELSE],
        ),
      ]),
    },
    {
      // The store owns every table: SQL and the raw connection (store.db) stay in
      // electron/store/, whose repositories are what the rest of the main process reads and
      // writes through.
      files: ['electron/**/*.ts'],
      excludeFiles: ['electron/store/**'],
      rules: {
        'no-restricted-properties': [
          'error',
          {
            property: 'db',
            message:
              'The store owns its tables: use (or add) a repository in electron/store/, not store.db.',
          },
        ],
      },
    },
    {
      // Time goes through the injected clock; only the clock itself touches the real timers.
      files: ['electron/**/*.ts'],
      excludeFiles: ['electron/core/clock.ts'],
      rules: { 'spotfolio/clock-only-timers': 'error' },
    },
    {
      // The ledger computes in the one Decimal, not in scaled bigints of its own.
      files: ['electron/ledger/**/*.ts'],
      rules: { 'spotfolio/decimal-amounts': 'error' },
    },
  ],
  ignorePatterns: [
    'out',
    'dist',
    'test-results',
    'playwright-report',
    // Deliberately bad code that test/lint/ lints on its own.
    'test/lint/fixtures',
    // Third-party sources kept as published (vendor/keytar/README.md).
    'vendor',
    // electron-vite's config bundled for a build, beside the config while the build runs (CI
    // builds the app beside the lint): gone before the linter reads a file it listed.
    '*.config.ts.*.mjs',
  ],
};
