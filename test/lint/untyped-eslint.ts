/**
 * ESLint with the project's config for fixtures linted by a path that is not on disk (lintText
 * with a file path in a real folder). The type-aware rules need the file in the TypeScript
 * project, so they and the project service are off here; test/lint/promises.test.ts lints a real
 * file with them on.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function untypedEslint(): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfigFile: join(root, 'eslint.config.js'),
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
      },
    },
  });
}
