/**
 * ESLint with the project's config for fixtures linted by a path that is not on disk (lintText
 * with a file path in a real folder). ESLint's rules read no types (the type-aware ones are
 * oxlint's: test/lint/promises.test.ts).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function untypedEslint(): ESLint {
  return new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });
}
