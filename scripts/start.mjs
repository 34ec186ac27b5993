#!/usr/bin/env node
// `npm start`: the demo. Builds the script-tag bundles when dist/viewer3d.js is missing or
// older than the sources (`npm run build`), then starts vite's dev server with
// vite.config.ts (which carries the demo backend, demo/server/token-api.ts) and prints
// the demo pages' URLs.
//
//   npm start                      build if needed, serve on 127.0.0.1:5173
//   npm start -- --port 8080 --host 0.0.0.0
//   npm start -- --no-build        never build (the script-tag pages need dist/)
//   npm start -- --build           always build first
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { bundleIsStale } from './stale-build.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { build: 'auto', port: undefined, host: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) fail(`${arg} needs a value`);
      return v;
    };
    if (arg === '--no-build') options.build = 'never';
    else if (arg === '--build') options.build = 'always';
    else if (arg === '--port' || arg.startsWith('--port=')) options.port = Number(value());
    else if (arg === '--host' || arg.startsWith('--host=')) options.host = value();
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: npm start -- [--port N] [--host H] [--build | --no-build]\n');
      process.exit(0);
    } else fail(`unknown argument ${arg} (try --help)`);
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port > 0 && options.port < 65536)) {
    fail('--port must be a port number');
  }
  return options;
}

function fail(message) {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
}

function build(reason) {
  if (!existsSync(path.join(ROOT, 'scripts/build.mjs'))) {
    process.stderr.write('npm start: scripts/build.mjs is missing; the script-tag pages (markup, jQuery) will not work.\n');
    return;
  }
  process.stdout.write(`Building the script-tag bundles (${reason}): npm run build\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(
      'npm start: the build failed; starting anyway. The demo index page runs from source; ' +
        'the markup and jQuery pages need dist/viewer3d.js.\n',
    );
  }
}

const options = parseArgs(process.argv.slice(2));
if (options.build === 'always') build('--build');
else if (options.build === 'auto') {
  const reason = bundleIsStale();
  if (reason) build(reason);
}

const { createServer } = await import('vite');
const server = await createServer({
  root: ROOT,
  configFile: path.join(ROOT, 'vite.config.ts'),
  server: {
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  },
});
await server.listen();

const urls = server.resolvedUrls ?? { local: [], network: [] };
const base = (urls.local[0] ?? `http://localhost:${server.config.server.port}/`).replace(/\/$/, '');
const line = (label, url) => `  ${label.padEnd(22)}${url}\n`;
process.stdout.write(
  '\nbim-viewer demo\n' +
    line('demo (Duplex):', `${base}/demo/`) +
    line('other sample models:', `${base}/demo/?project=fzk-haus  (or all, gymzaal, tekla-mini, ...)`) +
    line('markup page:', `${base}/demo/markup.html`) +
    line('jQuery 1.12 page:', `${base}/demo/jquery.html`) +
    line('token API:', `POST ${base}/v2/projects/demo/viewer3d/token`) +
    urls.network.map((u) => line('on the network:', `${u.replace(/\/$/, '')}/demo/`)).join('') +
    '\n',
);
server.bindCLIShortcuts({ print: true });

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await server.close();
    process.exit(0);
  });
}
