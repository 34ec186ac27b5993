import { createReadStream, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { Middleware } from './http.js';

/**
 * Files the demo pages need that vite does not serve as they are: the script-tag
 * bundles in dist/ (built by `npm run build`, served untransformed like a CDN would)
 * and jQuery builds from node_modules under /vendor/.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ifc': 'application/x-step',
};

/** jQuery builds the demo pages load, by the path they use. */
export function vendorFiles(root: string): Record<string, string> {
  return {
    '/vendor/jquery-1.12.4.min.js': join(root, 'node_modules/jquery1/dist/jquery.min.js'),
    '/vendor/jquery-2.2.4.min.js': join(root, 'node_modules/jquery2/dist/jquery.min.js'),
    '/vendor/jquery-4.0.0.min.js': join(root, 'node_modules/jquery/dist/jquery.min.js'),
  };
}

/**
 * Serves `dir` under the URL prefix `prefix` (e.g. '/dist/'); other requests go on.
 * A missing file under the prefix is a plain-text 404 saying `missingHint`.
 */
export function serveDirectory(prefix: string, dir: string, missingHint = 'Not found'): Middleware {
  const base = resolve(dir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = safePathname(req.url);
    if (pathname === undefined || !pathname.startsWith(prefix)) return next();
    const file = resolve(base, '.' + sep + pathname.slice(prefix.length));
    if (file !== base && !file.startsWith(base + sep)) return next();
    sendFile(req.method, file, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(`${pathname}: ${missingHint}\n`);
    });
  };
}

/** Serves single files by exact URL path. */
export function serveFiles(files: Record<string, string>): Middleware {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = safePathname(req.url);
    const file = pathname === undefined ? undefined : files[pathname];
    if (!file) return next();
    sendFile(req.method, file, res, next);
  };
}

function safePathname(url: string | undefined): string | undefined {
  try {
    return decodeURIComponent(new URL(url ?? '/', 'http://localhost').pathname);
  } catch {
    return undefined;
  }
}

/** Sends one file (GET or HEAD), typed by its extension unless `type` says; a missing one goes to `next`. */
export function sendFile(method: string, file: string, res: Parameters<Middleware>[1], next: () => void, type?: string): void {
  let size: number;
  let modified: Date;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return next();
    size = stat.size;
    modified = stat.mtime;
  } catch {
    return next();
  }
  res.writeHead(200, {
    'Content-Type': type ?? CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': size,
    'Last-Modified': modified.toUTCString(),
    // Rebuilt bundles must show up on reload.
    'Cache-Control': 'no-cache',
  });
  if (method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file)
    .on('error', (error) => res.destroy(error))
    .pipe(res);
}
