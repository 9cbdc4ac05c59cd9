/**
 * ESLint with the project's config for fixtures linted by a path that is not on disk (lintText
 * with a file path in a real folder). The type-aware rules need the file in the TypeScript
 * project, so they and the project service are off here; test/lint/promises.test.ts lints a real
 * file with them on.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A test that reads the findings of one rule only may leave out the import-cycle rule: from cold
 * it walks the whole import graph of the file linted (about 4 s of CPU), which only
 * layers.test.ts looks at.
 */
export const WITHOUT_CYCLE_RULE: Linter.RulesRecord = { 'import-x/no-cycle': 'off' };

export function untypedEslint(rules: Linter.RulesRecord = {}): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfigFile: join(root, 'eslint.config.js'),
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        ...rules,
      },
    },
  });
}
