import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
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
