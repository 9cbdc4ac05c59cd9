/**
 * Serving the built renderer from one folder, and nothing outside it: the request path is
 * decoded once, resolved under the root, and checked again after symlinks are followed.
 */
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export function contentTypeOf(file: string): string {
  return contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

export type StaticLookup =
  | { found: true; file: string; size: number; mtimeMs: number }
  | { found: false; status: 400 | 403 | 404; reason: string };

/**
 * Maps a URL pathname (still percent-encoded) to a file under `root`. "/" and folders map to their
 * index.html. Encoded separators, NUL bytes, dot segments that climb out of the root, and symlinks
 * pointing outside it are all refused.
 */
export async function lookupStatic(root: string, encodedPath: string): Promise<StaticLookup> {
  let path: string;
  try {
    path = decodeURIComponent(encodedPath);
  } catch {
    return { found: false, status: 400, reason: 'Malformed path encoding' };
  }
  if (path.includes('\0')) return { found: false, status: 400, reason: 'NUL byte in path' };
  // After decoding, a backslash or an encoded slash could smuggle a separator past URL parsing.
  if (path.includes('\\') || /%2f|%5c/i.test(encodedPath)) {
    return { found: false, status: 400, reason: 'Encoded path separator' };
  }
  if (!path.startsWith('/')) return { found: false, status: 400, reason: 'Relative path' };
  const rootResolved = resolve(root);
  let candidate = resolve(rootResolved, `.${path}`);
  if (!isInside(rootResolved, candidate)) {
    return { found: false, status: 403, reason: 'Path leaves the app folder' };
  }
  try {
    let info = await stat(candidate);
    if (info.isDirectory()) {
      candidate = join(candidate, 'index.html');
      info = await stat(candidate);
    }
    if (!info.isFile()) return { found: false, status: 404, reason: 'Not a file' };
    const [realRoot, realFile] = await Promise.all([realpath(rootResolved), realpath(candidate)]);
    if (!isInside(realRoot, realFile)) {
      return { found: false, status: 403, reason: 'Path leaves the app folder' };
    }
    return { found: true, file: realFile, size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    return { found: false, status: 404, reason: 'Not found' };
  }
}

/** A file read ahead, valid while the file keeps this size and modification time. */
export interface ReadAhead {
  body: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * What a page must fetch before it runs, read into memory: index.html and the scripts and styles
 * it names, keyed by the real paths lookupStatic answers with. Empty when there is no readable
 * index.html; a file that cannot be read is left out (it is served, or refused, as any other).
 */
export async function readFirstPage(root: string): Promise<Map<string, ReadAhead>> {
  const files = new Map<string, ReadAhead>();
  try {
    const realRoot = await realpath(resolve(root));
    const index = join(realRoot, 'index.html');
    const html = await readFile(index, 'utf8');
    const paths = new Set([index]);
    for (const match of html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"[^>]*>/gi)) {
      const reference = match[1]!;
      // data: icons and anything remote are not ours to serve.
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(reference)) continue;
      const file = resolve(realRoot, `.${reference.startsWith('/') ? '' : '/'}${reference}`);
      if (isInside(realRoot, file)) paths.add(file);
    }
    await Promise.all(
      [...paths].map(async (path) => {
        try {
          // Stat first: a file changed after it is then seen as changed, and read from disk.
          const info = await stat(path);
          const [real, body] = await Promise.all([realpath(path), readFile(path)]);
          if (isInside(realRoot, real)) {
            files.set(real, { body, size: info.size, mtimeMs: info.mtimeMs });
          }
        } catch {
          // Served from disk, or refused, when asked for.
        }
      }),
    );
  } catch {
    // No index.html: nothing to read ahead.
  }
  return files;
}

export { createReadStream };
