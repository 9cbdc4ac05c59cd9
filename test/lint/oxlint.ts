/**
 * oxlint with the project's config (.oxlintrc.json), run as `npm run lint` runs it, on files the
 * lint of the tree skips or that a test writes: its findings as `file:line: code`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { root } from './untyped-eslint';

interface OxlintReport {
  diagnostics: { code: string; filename: string; labels: { span: { line: number } }[] }[];
}

export function oxlintFindings(paths: string[], options: { typeAware?: boolean } = {}): string[] {
  const config = JSON.parse(readFileSync(join(root, '.oxlintrc.json'), 'utf8')) as {
    ignorePatterns: string[];
  };
  // The fixtures are what the tree's lint skips; here they are what is linted.
  config.ignorePatterns = config.ignorePatterns.filter(
    (pattern) => pattern !== 'test/lint/fixtures',
  );
  const folder = mkdtempSync(join(tmpdir(), 'spotfolio-oxlint-'));
  try {
    const configFile = join(folder, 'oxlintrc.json');
    writeFileSync(configFile, JSON.stringify(config));
    const flags = options.typeAware ? ['--type-aware'] : [];
    const run = spawnSync(
      join(root, 'node_modules/.bin/oxlint'),
      [...flags, '-c', configFile, '-f', 'json', ...paths],
      { cwd: root, encoding: 'utf8' },
    );
    // oxlint exits 1 when it finds something; its report is on stdout either way.
    if (run.status !== 0 && run.status !== 1) throw new Error(`oxlint failed: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as OxlintReport;
    return report.diagnostics
      .map(
        (diagnostic) =>
          `${relative(root, resolve(root, diagnostic.filename))}:${diagnostic.labels[0]?.span.line}: ${diagnostic.code}`,
      )
      .sort();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
