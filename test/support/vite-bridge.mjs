// Serves everything web-test-runner does not serve itself through a vite dev server in
// middleware mode, so tests get the same pipeline as the demo (vite.config.ts and its
// plugins, TS transforms, `?url` / `?worker` imports, module workers, public/, POST routes
// of the demo's API plugins...).
//
// Usage (web-test-runner.config.mjs):
//   const vite = viteBridge();
//   export default { plugins: [vite.plugin], middleware: [vite.middleware], ... };
//
// Why two parts: plugins cannot add koa middleware. The koa app is composed (koa-compose 4.2
// copies the middleware array) before `serverStart` runs, so `app.use()` inside
// `serverStart` is never reached. The plugin owns vite's lifecycle (created in
// serverStart, closed in serverStop); the middleware, registered via the config's
// `middleware` list, runs before web-test-runner's own file serving and hands requests to
// vite. Nothing is proxied: vite gets the original node req/res, so methods, bodies and
// streaming work as in `npm start`.
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, createLogger, mergeConfig } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** web-test-runner's own query parameters (session id, manual/debug pages). */
const WTR_PARAMS = ['wtr-session-id', 'wtr-test-file', 'wtr-manual-session'];
/** Imported by @web/test-runner-commands in the browser; served by web-dev-server. */
const WDS_WEBSOCKET = '/__web-dev-server__web-socket.js';

function isWtrRequest(ctx) {
  const p = ctx.path;
  if (p === '/' || p.startsWith('/__web-test-runner__') || p.startsWith('/__web-dev-server__')) {
    return true;
  }
  // HTML test files (test/**/*.test.html) get the runtime injected by web-test-runner.
  if (p.endsWith('.html') && WTR_PARAMS.some(k => ctx.URL.searchParams.has(k))) return true;
  return false;
}

/** Removes web-test-runner's query parameters so vite sees the plain module URL. */
function stripWtrParams(url) {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const k of WTR_PARAMS) {
    if (params.has(k)) {
      params.delete(k);
      changed = true;
    }
  }
  if (!changed) return url;
  const rest = params.toString();
  return url.slice(0, q) + (rest ? `?${rest}` : '');
}

/**
 * @param {{ root?: string, configFile?: string | false, config?: import('vite').InlineConfig }} [options]
 */
export function viteBridge(options = {}) {
  const root = options.root ?? ROOT;
  const configFile =
    options.configFile ?? (existsSync(path.join(root, 'vite.config.ts')) ? path.join(root, 'vite.config.ts') : false);

  /** @type {import('vite').ViteDevServer | undefined} */
  let vite;
  /** @type {Promise<import('vite').ViteDevServer> | undefined} */
  let ready;
  const requestState = new AsyncLocalStorage();

  // Vite in middleware mode logs a transform error and then calls next() *without* the
  // error. Remember errors logged while a request is inside vite, so the bridge can answer
  // 500 with the message instead of falling through to web-test-runner's static files
  // (which would serve the untransformed .ts).
  const baseLogger = createLogger('warn', { allowClearScreen: false, prefix: '[vite]' });
  const logger = {
    ...baseLogger,
    error(msg, opts) {
      const state = requestState.getStore();
      // eslint-disable-next-line no-control-regex
      if (state) state.error = String(opts?.error?.message ?? msg).replace(/\x1b\[[0-9;]*m/g, '');
      baseLogger.error(msg, opts);
    },
  };

  const plugin = {
    name: 'vite-bridge',
    async serverStart() {
      ready = createServer(
        mergeConfig(options.config ?? {}, {
          root,
          configFile,
          appType: 'custom',
          logLevel: 'warn',
          customLogger: logger,
          clearScreen: false,
          // separate from the demo's node_modules/.vite so `npm start` and `npm test` can
          // run at the same time without fighting over optimized deps (VITE_TEST_CACHE: another
          // folder, for two test runs at once)
          cacheDir: process.env.VITE_TEST_CACHE || 'node_modules/.vite-test',
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: {
            // scan the tests too, so deps are optimized before the first page loads; a dep
            // discovered later would re-optimize and invalidate modules already loaded
            entries: ['test/**/*.test.ts', 'src/**/*.ts', 'demo/**/*.html'],
            // its browser module dynamically imports web-dev-server's websocket by URL
            exclude: ['@web/test-runner-commands'],
          },
          plugins: [
            {
              name: 'wtr-externals',
              enforce: 'pre',
              resolveId(id) {
                if (id === WDS_WEBSOCKET) return { id, external: true };
              },
            },
          ],
        }),
      );
      vite = await ready;
    },
    async serverStop() {
      const v = vite ?? (ready && (await ready.catch(() => undefined)));
      vite = undefined;
      ready = undefined;
      await v?.close();
    },
  };

  /** @type {import('koa').Middleware} */
  const middleware = async (ctx, next) => {
    if (isWtrRequest(ctx) || !ready) return next();
    const server = vite ?? (await ready);
    const { req, res } = ctx;
    const originalUrl = req.url;
    req.url = stripWtrParams(req.url);
    // koa presets 404; connect handlers (vite's and plugins' configureServer routes) expect
    // node's default 200 when they do not set a status
    res.statusCode = 200;

    const state = { error: undefined };
    const handled = await new Promise(resolve => {
      let settled = false;
      const settle = value => {
        if (settled) return;
        settled = true;
        res.off('finish', onEnd);
        res.off('close', onEnd);
        resolve(value);
      };
      const onEnd = () => settle(true);
      res.once('finish', onEnd);
      res.once('close', onEnd);
      requestState.run(state, () => {
        server.middlewares(req, res, err => {
          if (err) state.error = err.message ?? String(err);
          if (res.headersSent || res.writableEnded) settle(true);
          else settle(false);
        });
      });
    });

    req.url = originalUrl;
    if (!handled && !res.headersSent) res.statusCode = 404;
    if (handled) {
      // vite wrote the response itself
      ctx.respond = false;
      return;
    }
    if (state.error) {
      ctx.status = 500;
      ctx.type = 'text/plain';
      ctx.body = `vite failed on ${originalUrl}:\n${state.error}`;
      return;
    }
    // not something vite serves: let web-test-runner try (it 404s otherwise)
    return next();
  };

  return { plugin, middleware };
}
