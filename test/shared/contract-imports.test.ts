/**
 * The preload and the renderer carry the bridge contract without zod: following every import that
 * survives compilation (type-only imports are erased) from their entry points never reaches zod or
 * the schema table. The schemas are the main process's; the page gets the names and the types.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

/** The specifiers a file imports at run time: value imports, re-exports and dynamic imports. */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every project file and package reached at run time from the entry points. */
function reachable(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((entry) => resolve(root, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of runtimeSpecifiers(file)) {
      if (specifier.startsWith('.')) {
        const target = resolveLocal(file, specifier);
        // Stylesheets, images and the like are not modules of ours.
        if (target) queue.push(target);
      } else {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
  }
  return { files, packages };
}

const relativeFiles = (files: Set<string>) => [...files].map((file) => relative(root, file));

describe('what the page side of the bridge loads', () => {
  it('the preload reaches the contract but neither zod nor the schemas', () => {
    const { files, packages } = reachable(['electron/preload.ts']);
    expect(relativeFiles(files)).toContain('shared/contract.ts');
    expect(relativeFiles(files)).not.toContain('shared/contract-schemas.ts');
    expect([...packages].sort()).toEqual(['electron']);
  });

  it('the renderer reaches the contract but neither zod nor the schemas', () => {
    const { files, packages } = reachable(['renderer/src/main.tsx']);
    expect(relativeFiles(files)).toContain('shared/contract.ts');
    expect(relativeFiles(files)).not.toContain('shared/contract-schemas.ts');
    expect(packages.has('zod')).toBe(false);
    expect(packages.has('react')).toBe(true);
  });

  it('the main process does reach the schemas, through dispatch', () => {
    const { files, packages } = reachable(['electron/api/dispatch.ts']);
    expect(relativeFiles(files)).toContain('shared/contract-schemas.ts');
    expect(packages.has('zod')).toBe(true);
  });
});
