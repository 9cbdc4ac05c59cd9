/**
 * The type-aware promise rules of eslint.config.js, run through ESLint itself on a real file
 * (fixtures/floating-promise.ts, which the lint of the tree skips): a forgotten promise and an
 * async callback where nobody awaits it fail; inBackground() and await pass.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { expect, it } from 'vitest';
import { root } from './untyped-eslint';

it('fails on a floating promise and a misused one, and passes inBackground() and await', async () => {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: join(root, 'eslint.config.js'),
    ignore: false,
  });
  const [result] = await eslint.lintFiles([join(root, 'test/lint/fixtures/floating-promise.ts')]);
  const findings = (result?.messages ?? []).map(
    (message) => `${message.line}: ${message.ruleId ?? 'parse'}`,
  );
  expect(findings).toEqual([
    '13: @typescript-eslint/no-floating-promises',
    '17: @typescript-eslint/no-misused-promises',
  ]);
}, 120_000);
