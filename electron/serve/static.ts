/**
 * Serving the built renderer from one folder, and nothing outside it: the request path is
 * decoded once, resolved under the root, and checked again after symlinks are followed.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
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
  | { found: true; file: string; size: number }
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
    return { found: true, file: realFile, size: info.size };
  } catch {
    return { found: false, status: 404, reason: 'Not found' };
  }
}

export { createReadStream };
