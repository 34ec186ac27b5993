#!/usr/bin/env node
// `npm start`: the demo and the platform. Builds dist/ when it is missing or older than
// its sources (`npm run build`: the script-tag bundles and the console), then starts
//   - vite's dev server with vite.config.ts (which carries the demo backend,
//     demo/server/token-api.ts) and prints the demo pages' URLs, and
//   - the platform server (`node --import tsx server/main.ts`, a child process: PGlite and
//     files in DATA_DIR, default ./data; port PORT, default 3000; every other setting of
//     README's "The platform" passes through the environment) and prints its console's URL.
// Ctrl+C stops both.
//
//   npm start                      build if needed, demo on 127.0.0.1:5173, platform on 127.0.0.1:3000
//   npm start -- --port 8080 --host 0.0.0.0     (the demo's dev server)
//   PORT=3100 DATA_DIR=/tmp/bim npm start        (the platform)
//   npm start -- --no-build        never build (the script-tag pages and the console need dist/)
//   npm start -- --build           always build first
//   npm start -- --no-platform     the demo alone
//
// Signing in to the console: the first start creates the user ADMIN_EMAIL (default
// admin@example.com) with the password ADMIN_PASSWORD, or, without it, a generated one
// printed once (the platform's "first start: ..." line below).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NODE_FLAGS } from '../server/node-flags.mjs';
import { bundleIsStale } from './stale-build.mjs';
import { EXAMPLES } from './example.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { build: 'auto', port: undefined, host: undefined, platform: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) fail(`${arg} needs a value`);
      return v;
    };
    if (arg === '--no-build') options.build = 'never';
    else if (arg === '--build') options.build = 'always';
    else if (arg === '--no-platform') options.platform = false;
    else if (arg === '--port' || arg.startsWith('--port=')) options.port = Number(value());
    else if (arg === '--host' || arg.startsWith('--host=')) options.host = value();
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'usage: npm start -- [--port N] [--host H] [--build | --no-build] [--no-platform]\n' +
          '  --port, --host: the demo\'s dev server (default 127.0.0.1:5173)\n' +
          '  the platform server reads its environment: PORT (default 3000), HOST, DATA_DIR, ADMIN_EMAIL, ADMIN_PASSWORD, ...\n',
      );
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
  process.stdout.write(`Building the script-tag bundles and the console (${reason}): npm run build\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(
      'npm start: the build failed; starting anyway. The demo index page runs from source; ' +
        'the markup and jQuery pages need dist/viewer3d.js, the platform\'s console dist/console.\n',
    );
  }
}

const options = parseArgs(process.argv.slice(2));
if (options.build === 'always') build('--build');
else if (options.build === 'auto') {
  const reason = bundleIsStale();
  if (reason) build(reason);
}

const line = (label, url) => `  ${label.padEnd(22)}${url}\n`;
let stopping = false;
const platform = options.platform ? startPlatform() : undefined;

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
process.stdout.write(
  '\nbim-viewer demo\n' +
    line('demo (Duplex):', `${base}/demo/`) +
    line('other sample models:', `${base}/demo/?project=fzk-haus  (or all, gymzaal, tekla-mini, ...)`) +
    line('markup page:', `${base}/demo/markup.html`) +
    line('jQuery 1.12 page:', `${base}/demo/jquery.html`) +
    line('token API:', `POST ${base}/v2/projects/demo/viewer3d/token`) +
    urls.network.map((u) => line('on the network:', `${u.replace(/\/$/, '')}/demo/`)).join('') +
    (platform ? '  (the platform and its console: see the "platform" lines)\n' : '') +
    '\n',
);
server.bindCLIShortcuts({ print: true });

/**
 * The platform server as a child process with this process's environment. Its output is
 * passed through line by line (so the first start's generated admin password shows);
 * once it listens, the console's URL and how to sign in are printed.
 */
function startPlatform() {
  // The example apps (examples/, `npm run example:react -- serve`, ...) sign in as public clients at their default addresses.
  const examples = Object.entries(EXAMPLES).map(([name, { port }]) => `example-${name}=http://127.0.0.1:${port}/`).join(' ');
  const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: { PUBLIC_CLIENTS: examples, ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const passThrough = (stream, out) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const text of lines) {
        out.write(`platform | ${text}\n`);
        const listening = /^listening on (\S+)/.exec(text);
        if (listening) printConsole(listening[1].replace(/\/$/, ''));
      }
    });
    stream.on('end', () => rest && out.write(`platform | ${rest}\n`));
  };
  passThrough(child.stdout, process.stdout);
  passThrough(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`npm start: the platform server stopped (${signal ?? `exit ${code}`}); the demo keeps running. Its output above says why.\n`);
  });
  return child;
}

function printConsole(url) {
  const publicUrl = (process.env.PUBLIC_URL || url).replace(/\/$/, '');
  const email = process.env.ADMIN_EMAIL || 'admin@example.com';
  process.stdout.write(
    '\nbim platform\n' +
      line('console:', `${publicUrl}/console/`) +
      line('sign in as:', `${email}  (ADMIN_EMAIL)`) +
      line('password:', process.env.ADMIN_PASSWORD
        ? 'ADMIN_PASSWORD (used when the first start created the user)'
        : 'printed once by the first start ("first start: created the user ... with the password ..."), or set ADMIN_PASSWORD before the first start') +
      line('API:', `${publicUrl}/1.0/... and ${publicUrl}/v2/...  (described at ${publicUrl}/openapi.json)`) +
      line('data:', `${process.env.DATA_DIR || path.join(ROOT, 'data')}${process.env.DATABASE_URL ? ' (blobs; rows in DATABASE_URL)' : ''}`) +
      '\n',
  );
}

/** Stops the platform (SIGTERM, then SIGKILL after 10 s) and waits for it. */
function stopPlatform() {
  if (!platform || platform.exitCode !== null || platform.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => platform.kill('SIGKILL'), 10_000);
    platform.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    platform.kill('SIGTERM');
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all([server.close(), stopPlatform()]);
    process.exit(0);
  });
}
// However this process ends (vite's `q` shortcut exits directly), the platform goes with it.
process.on('exit', () => {
  if (platform && platform.exitCode === null && platform.signalCode === null) platform.kill('SIGTERM');
});
