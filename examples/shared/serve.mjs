// Serves a built example app and forwards the platform's paths to the platform, so the app
// and the API share one origin (the platform answers cross-origin calls only for the
// viewers' data). `node scripts/example.mjs <framework> serve` and the examples' tests use it;
// in production a reverse proxy in front of both does the same.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import path from 'node:path';

/** The paths the platform answers: v1 and OAuth, the OAuth 2.0 aliases, v2, BCF. */
export const PLATFORM_PATHS = ['/1.0/', '/oauth2/', '/v2/', '/bcf/'];

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.map': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};

/**
 * Starts serving `root` (an app's build output; unknown paths get its index.html, as a
 * single-page app's routes do) on `host:port` (port 0: any free one), the platform's
 * paths forwarded to `platform`. Resolves with the app's URL and a close function.
 */
export async function serveApp({ root, platform, port = 0, host = '127.0.0.1' }) {
  const target = new URL(platform);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    if (PLATFORM_PATHS.some((prefix) => url.pathname.startsWith(prefix))) return forward(req, res, target);
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    const found = file.startsWith(root) && existsSync(file) && statSync(file).isFile() ? file : path.join(root, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(found)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    createReadStream(found).pipe(res);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const { port: bound } = server.address();
  return {
    url: `http://${host}:${bound}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** Passes a request to the platform unchanged (its Host too: the platform builds its URLs on the app's origin). */
function forward(req, res, target) {
  const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    res.writeHead(502, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `The platform at ${target.origin} did not answer: ${error.message}` } }));
  });
  req.pipe(upstream);
}
