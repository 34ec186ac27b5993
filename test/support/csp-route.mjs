// A test route of the test server: a page under a strict Content Security Policy (no
// 'unsafe-eval', no inline script or style, workers only from the page's own origin), with
// the built script-tag bundles (dist/) served under the same policy, so their workers run
// under it too. Violations are reported to /csp/report (workers' included: they fire no
// event in the page), and the page records its own `securitypolicyviolation` events.
// Used by test/csp.test.ts.
//
//   /csp/page.html      the page: both bundles, a <bim-viewer-3d> and a <bim-viewer-2d>
//                       (?from=other: the bundles from the other origin)
//   /csp/dist/<file>    dist/<file> with the policy
//   /csp/report         POST: a violation report (report-uri); GET /csp/reports: those seen
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CSP_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  'report-uri /csp/report',
].join('; ');

/** The page under `policy`, with the bundles from `origin` ('' for its own). */
const page = (policy, origin) => `<!doctype html>
<html><head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy.replace(/; report-uri.*$/, '')}">
<link rel="stylesheet" href="/csp/page.css">
<script src="/csp/listen.js"></script>
<script src="${origin}/csp/dist/viewer3d.js"></script>
<script src="${origin}/csp/dist/viewer2d.js"></script>
</head><body>
<bim-viewer-3d id="viewer3d"></bim-viewer-3d>
<bim-viewer-2d id="viewer2d"></bim-viewer-2d>
</body></html>
`;

const CSS = `bim-viewer-3d, bim-viewer-2d { display: block; width: 400px; height: 300px; }`;

// The page's own record of violations, set up before the bundles run.
const LISTEN = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '') + ':' + e.lineNumber);
});
`;

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.map': 'application/json' };
const reports = [];

/** Koa middleware answering /csp/... */
export async function cspRoute(ctx, next) {
  if (!ctx.path.startsWith('/csp/')) return next();
  if (ctx.path === '/csp/report' && ctx.method === 'POST') {
    let body = '';
    for await (const part of ctx.req) body += part;
    reports.push(body);
    ctx.status = 204;
    return;
  }
  if (ctx.path === '/csp/reports') {
    ctx.body = JSON.stringify(reports.splice(0));
    ctx.type = 'application/json';
    return;
  }
  // ?from=other: the bundles come from the server's other loopback name (another origin,
  // allowed as a script source), so their workers would start from blob: URLs, which
  // worker-src 'self' refuses: the viewers must fail clearly, not hang.
  const other = ctx.query.from === 'other' ? `http://${ctx.host.startsWith('localhost') ? ctx.host.replace('localhost', '127.0.0.1') : ctx.host.replace('127.0.0.1', 'localhost')}` : '';
  const policy = other ? CSP_POLICY.replace("script-src 'self'", `script-src 'self' ${other}`) : CSP_POLICY;
  ctx.set('Content-Security-Policy', policy);
  ctx.set('Cache-Control', 'no-store');
  if (ctx.path === '/csp/page.html') {
    ctx.type = 'text/html';
    ctx.body = page(policy, other);
    return;
  }
  if (ctx.path === '/csp/page.css') return void ((ctx.type = 'text/css'), (ctx.body = CSS));
  if (ctx.path === '/csp/listen.js') return void ((ctx.type = 'text/javascript'), (ctx.body = LISTEN));
  const file = /^\/csp\/dist\/([\w.-]+)$/.exec(ctx.path)?.[1];
  if (!file) return next();
  try {
    ctx.body = await readFile(path.join(ROOT, 'dist', file));
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  } catch {
    ctx.status = 404;
  }
}
