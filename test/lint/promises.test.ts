/**
 * The type-aware promise rules of .oxlintrc.json, run through oxlint itself on a real file
 * (fixtures/floating-promise.ts, which the lint of the tree skips): a forgotten promise and an
 * async callback where nobody awaits it fail; inBackground() and await pass. The config is the
 * project's, less the pattern that skips the fixtures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { root } from './untyped-eslint';

interface OxlintReport {
  diagnostics: { code: string; labels: { span: { line: number } }[] }[];
}

it('fails on a floating promise and a misused one, and passes inBackground() and await', () => {
  const config = JSON.parse(readFileSync(join(root, '.oxlintrc.json'), 'utf8')) as {
    ignorePatterns: string[];
  };
  config.ignorePatterns = config.ignorePatterns.filter(
    (pattern) => pattern !== 'test/lint/fixtures',
  );
  const folder = mkdtempSync(join(tmpdir(), 'spotfolio-oxlint-'));
  try {
    const configFile = join(folder, 'oxlintrc.json');
    writeFileSync(configFile, JSON.stringify(config));
    // oxlint exits 1 when it finds something; its report is on stdout either way.
    const run = spawnSync(
      join(root, 'node_modules/.bin/oxlint'),
      ['--type-aware', '-c', configFile, '-f', 'json', 'test/lint/fixtures/floating-promise.ts'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as OxlintReport;
    const findings = report.diagnostics.map(
      (diagnostic) => `${diagnostic.labels[0]?.span.line}: ${diagnostic.code}`,
    );
    expect(findings).toEqual([
      '13: typescript(no-floating-promises)',
      '17: typescript(no-misused-promises)',
    ]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
