/**
 * oxlint with the project's config (oxlint.config.js), run as `npm run lint` runs it: on files the
 * lint of the tree skips or that a test writes, and on fixtures linted as if they sat at a path of
 * the tree (written into a copy of it, so they resolve the tree's real modules and the tree itself
 * is never touched, not even by a test that stops half-way).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fromRoot = createRequire(join(root, 'package.json'));

/** What a copy of the tree needs for the layers' rule to resolve imports as in the tree. */
const TREE = ['electron', 'shared', 'renderer', 'test', 'bench', 'lint', 'tsconfig.json'];

interface OxlintConfig {
  jsPlugins: string[];
  overrides: unknown[];
  ignorePatterns: string[];
  [key: string]: unknown;
}

interface OxlintReport {
  diagnostics: {
    code?: string;
    message: string;
    help?: string;
    filename: string;
    labels: { span: { line: number } }[];
  }[];
}

/** One finding: the rule as oxlint names it (`plugin(rule)`, or `parse`), its line and words. */
export interface Finding {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/**
 * The config as JSON, for oxlint started from another folder: the JS config is read only through
 * `-c`, and a plugin is found from the config's folder, so the JSON names each by absolute path.
 */
async function configJson(scope: 'tree' | 'own rules'): Promise<string> {
  const module = (await import(pathToFileURL(join(root, 'oxlint.config.js')).href)) as {
    default: OxlintConfig;
  };
  const { overrides, jsPlugins, ...own } = module.default;
  // The fixtures are what the tree's lint skips; here they are what is linted.
  own.ignorePatterns = own.ignorePatterns.filter((pattern) => pattern !== 'test/lint/fixtures');
  // Outside a copy of the tree no override's patterns match: its plugins would only cost time.
  if (scope === 'own rules') return JSON.stringify(own);
  return JSON.stringify({
    ...own,
    overrides,
    jsPlugins: jsPlugins.map((plugin) =>
      plugin.startsWith('.')
        ? resolve(root, plugin)
        : { name: plugin.replace(/^eslint-plugin-/, ''), specifier: fromRoot.resolve(plugin) },
    ),
  });
}

/**
 * oxlint's findings on `paths`, run from `cwd` with the config written into `configFolder`: an
 * override's file patterns are read from the config's folder, so a copy of the tree has its own.
 */
async function lint(
  cwd: string,
  paths: string[],
  options: { typeAware: boolean; configFolder: string; scope: 'tree' | 'own rules' },
): Promise<Finding[]> {
  const configFile = join(options.configFolder, 'oxlintrc.json');
  writeFileSync(configFile, await configJson(options.scope));
  const flags = options.typeAware ? ['--type-aware'] : [];
  const run = spawnSync(
    join(root, 'node_modules/.bin/oxlint'),
    [...flags, '-c', configFile, '-f', 'json', ...paths],
    { cwd, encoding: 'utf8' },
  );
  // oxlint exits 1 when it finds something; its report is on stdout either way.
  if (run.status !== 0 && run.status !== 1) throw new Error(`oxlint failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as OxlintReport;
  return report.diagnostics.map((diagnostic) => ({
    file: relative(cwd, resolve(cwd, diagnostic.filename)),
    line: diagnostic.labels[0]?.span.line ?? 0,
    rule: diagnostic.code ?? 'parse',
    text: [diagnostic.message, diagnostic.help].filter(Boolean).join(' '),
  }));
}

/** oxlint's findings on files of the tree (or written anywhere), as `file:line: rule`, sorted. */
export async function oxlintFindings(
  paths: string[],
  options: { typeAware?: boolean } = {},
): Promise<string[]> {
  // The tree is never written to: the config goes to a folder of its own, so only its own rules
  // hold (no override's); these callers check no other.
  const folder = mkdtempSync(join(tmpdir(), 'spotfolio-oxlint-config-'));
  try {
    const findings = await lint(root, paths, {
      typeAware: options.typeAware ?? false,
      configFolder: folder,
      scope: 'own rules',
    });
    return findings.map((finding) => `${finding.file}:${finding.line}: ${finding.rule}`).sort();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Each fixture's findings, the fixture linted as the file at its path in the tree (a new file, or
 * in place of one, such as electron/demo.ts). Fixtures that share a path are linted in turns.
 */
export async function findingsInTree(
  fixtures: { path: string; code: string }[],
): Promise<Finding[][]> {
  const copy = mkdtempSync(join(tmpdir(), 'spotfolio-lint-tree-'));
  try {
    for (const entry of TREE) cpSync(join(root, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    const results: Finding[][] = fixtures.map(() => []);
    let pending = fixtures.map((fixture, index) => ({ ...fixture, index }));
    while (pending.length > 0) {
      const turn = pending.filter(
        (fixture, i) => pending.findIndex((other) => other.path === fixture.path) === i,
      );
      pending = pending.filter((fixture) => !turn.includes(fixture));
      for (const fixture of turn) writeFileSync(join(copy, fixture.path), fixture.code);
      const findings = await lint(
        copy,
        turn.map((fixture) => fixture.path),
        { typeAware: false, configFolder: copy, scope: 'tree' },
      );
      for (const fixture of turn) {
        results[fixture.index] = findings.filter((finding) => finding.file === fixture.path);
      }
    }
    return results;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
