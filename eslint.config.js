import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

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
 * match costs about as much as one that does: with the whole list for every file, the rule took
 * 11 s of the lint (TIMING, on an idle machine), with these lists 3 s. Each layer's files get the
 * policies that can apply to them, those whose `from` names their layer or no layer; the others,
 * which never match them, are left empty, so the outcome is the same and a message's policy index
 * is still the one in LAYER_POLICIES. Files under no layer's folder keep the whole list. The last
 * policy guards the folder: a file there that the rule sees as part of another layer (or of none)
 * would miss its own layer's policies, so its imports fail instead.
 */
const LAYER_BLOCKS = FOLDER_LAYERS.map(([type, pattern]) => {
  const folder = type === 'electron' ? 'electron/*' : `${pattern}/**`;
  const policies = LAYER_POLICIES.map((policy) => {
    const types = fromTypes(policy);
    return types === null || types.has(type) ? policy : { allow: [] };
  });
  policies.push({
    from: { element: { type: [`!${type}`, null] } },
    disallow: { to: { element: { isUnknown: false } } },
    message: `eslint.config.js checks the files of ${folder} as the layer ${type}, which this file is not part of: fix FOLDER_LAYERS or LAYER_BLOCKS.`,
  });
  return {
    // Each pair matches the files under both patterns, so a block checks a part of LAYER_FILES.
    files: LAYER_FILES.filter((glob) => glob.startsWith(`${folder.split('/')[0]}/`)).map((glob) => [
      folder,
      glob,
    ]),
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkInternals: true, policies }],
    },
  };
});

/**
 * Time goes through the injected Clock (electron/core/clock.ts): a raw timer cannot be driven by a
 * test's manual clock, so whatever waits on one makes its tests sleep. Flags the global timer
 * functions (called, passed or read off globalThis) and the node:timers modules.
 */
const TIMER_NAMES = new Set(['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval']);
const TIMER_MODULES = /^(node:)?timers(\/promises)?$/;
const clockOnlyTimers = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      timer:
        '{{name}} runs on the wall clock: use the injected Clock and its toolbox (electron/core/clock.ts).',
    },
  },
  create(context) {
    const report = (node, name) => context.report({ node, messageId: 'timer', data: { name } });
    return {
      ImportDeclaration(node) {
        if (TIMER_MODULES.test(node.source.value)) report(node, `'${node.source.value}'`);
      },
      MemberExpression(node) {
        const { object, property } = node;
        if (
          object.type === 'Identifier' &&
          ['globalThis', 'global', 'window'].includes(object.name) &&
          !node.computed &&
          TIMER_NAMES.has(property.name)
        ) {
          report(node, `${object.name}.${property.name}`);
        }
      },
      'Program:exit'(program) {
        const globalScope = context.sourceCode.getScope(program);
        for (const name of TIMER_NAMES) {
          const references = [
            ...(globalScope.set.get(name)?.references ?? []),
            ...globalScope.through.filter((ref) => ref.identifier.name === name),
          ];
          for (const ref of references) report(ref.identifier, name);
        }
      },
    };
  },
};

/**
 * No forgotten promise: the type-aware rules (no-floating-promises and no-misused-promises, with
 * `void` refused in electron/) are oxlint's, in .oxlintrc.json, which `npm run lint` runs first.
 * oxlint checks them with tsgolint, on TypeScript 7's checker; through typescript-eslint's project
 * service they took ~60 of this lint's ~105 CPU-seconds in CI, there ~10 (test/lint/promises.test.ts).
 */
export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'test-results',
      'playwright-report',
      // Deliberately bad code that test/lint/ lints on its own.
      'test/lint/fixtures',
      // Third-party sources kept as published (vendor/keytar/README.md).
      'vendor',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Unused names and import cycles are oxlint's (.oxlintrc.json): the same rules, without
      // parsing every file again and walking its imports (~13 of ESLint's ~44 CPU-seconds).
      '@typescript-eslint/no-unused-vars': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The layers: which folder may import which (docs/architecture.md).
    files: LAYER_FILES,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', checkInternals: true, policies: LAYER_POLICIES },
      ],
    },
  },
  ...LAYER_BLOCKS,
  {
    // Only the Electron entry points and the shell may touch the electron module.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**', 'test/shell/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message:
                'Only electron/main.ts, electron/preload.ts and electron/shell/ import electron.',
            },
          ],
        },
      ],
    },
  },
  {
    // The renderer knows only shared/ and window.spotfolio.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/electron/**', 'electron', 'better-sqlite3', 'keytar', 'undici', 'ws'],
              message: 'The renderer talks to the main process only over window.spotfolio.',
            },
          ],
        },
      ],
    },
  },
  {
    // One Decimal, configured for exact sums and products of amounts (shared/exact-decimal.ts): a
    // value of the default decimal.js rounds its arithmetic to 20 digits. The ledger too. A rule of
    // its own name, so it adds to the restrictions on imports above and below instead of replacing
    // them.
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['shared/exact-decimal.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'decimal.js',
              message: 'Import Decimal from shared/exact-decimal.ts (exact to the widest amount).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The store owns every table: SQL and the raw connection (store.db) stay in electron/store/,
    // whose repositories are what the rest of the main process reads and writes through. A rule
    // of its own name, so it adds to the others instead of replacing them.
    files: ['electron/**/*.ts'],
    ignores: ['electron/store/**'],
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
    ignores: ['electron/core/clock.ts'],
    plugins: { spotfolio: { rules: { 'clock-only-timers': clockOnlyTimers } } },
    rules: { 'spotfolio/clock-only-timers': 'error' },
  },
  {
    // shared/ imports nothing else of the project.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/electron/**', '**/renderer/**'],
              message: 'shared/ imports nothing else of the project.',
            },
          ],
        },
      ],
    },
  },
);
