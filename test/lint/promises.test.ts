/**
 * The type-aware promise rules of oxlint.config.js, run through oxlint itself on a real file
 * (fixtures/floating-promise.ts, which the lint of the tree skips): a forgotten promise and an
 * async callback where nobody awaits it fail; inBackground() and await pass.
 */
import { expect, it } from 'vitest';
import { oxlintFindings } from './oxlint';

it('fails on a floating promise and a misused one, and passes inBackground() and await', async () => {
  expect(
    await oxlintFindings(['test/lint/fixtures/floating-promise.ts'], { typeAware: true }),
  ).toEqual([
    'test/lint/fixtures/floating-promise.ts:13: typescript(no-floating-promises)',
    'test/lint/fixtures/floating-promise.ts:17: typescript(no-misused-promises)',
  ]);
}, 60_000);
