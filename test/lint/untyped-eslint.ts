/**
 * ESLint with the project's config for fixtures linted by a path that is not on disk (lintText
 * with a file path in a real folder). ESLint's rules read no types (the type-aware ones are
 * oxlint's: test/lint/promises.test.ts).
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
    overrideConfig: { rules },
  });
}
