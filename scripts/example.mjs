#!/usr/bin/env node
// The example apps (examples/, docs/frameworks/): one command builds each, one serves it.
//
//   npm run example:react            build: the package (dist/npm, dist/types) when stale, then the
//   npm run example:vue                     app's type check and its framework's build -> examples/<name>/dist
//   npm run example:angular
//   npm run example:react -- serve   the built app on http://127.0.0.1:<port>/ with the platform's
//                                    paths forwarded to PLATFORM_URL (default http://127.0.0.1:3000)
//
// Each app signs in as a public OAuth client whose callback is the app's own URL; `npm start`
// registers the three at their default ports (docs/frameworks/README.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIsStale, typesAreStale } from './stale-build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(ROOT, 'node_modules/.bin', name);

/** Each app: its port, its build steps (command, arguments, folder) and its build output. */
export const EXAMPLES = {
  react: {
    port: 5174,
    steps: [[bin('tsc'), ['-p', 'examples/react']], [bin('vite'), ['build', '--config', 'examples/react/vite.config.ts']]],
    dist: 'examples/react/dist',
  },
  vue: {
    port: 5175,
    steps: [[bin('vue-tsc'), ['-p', 'examples/vue']], [bin('vite'), ['build', '--config', 'examples/vue/vite.config.ts']]],
    dist: 'examples/vue/dist',
  },
  angular: {
    port: 5176,
    // node_modules/bim-viewers first, as an install would place it: angular.json copies its assets from there.
    steps: [[process.execPath, ['link-package.mjs'], 'examples/angular'], [bin('ng'), ['build'], 'examples/angular']],
    dist: 'examples/angular/dist/browser',
  },
};

function run(command, args, cwd = '.') {
  const result = spawnSync(command, args, { cwd: path.join(ROOT, cwd), stdio: 'inherit', env: { NG_CLI_ANALYTICS: 'false', ...process.env } });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${result.status})`);
}

/** The package as an app imports it (`bim-viewers`, `bim-viewers/react`, `bim-viewers/vue`), then the app. */
export function buildExample(name) {
  const example = EXAMPLES[name];
  const stale = bundleIsStale();
  if (stale) run(process.execPath, ['scripts/build.mjs', '--skip-types', '--skip-manifest']);
  if (typesAreStale()) run(bin('tsc'), ['-p', 'tsconfig.build.json']);
  for (const [command, args, cwd] of example.steps) run(command, args, cwd);
  return path.join(ROOT, example.dist);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name, action = 'build'] = process.argv.slice(2);
  if (!EXAMPLES[name] || !['build', 'serve'].includes(action)) {
    process.stderr.write(`usage: node scripts/example.mjs ${Object.keys(EXAMPLES).join('|')} [build|serve]\n`);
    process.exit(2);
  }
  try {
    if (action === 'build') buildExample(name);
    else {
      const { serveApp } = await import('../examples/shared/serve.mjs');
      const platform = process.env.PLATFORM_URL ?? 'http://127.0.0.1:3000';
      const app = await serveApp({ root: path.join(ROOT, EXAMPLES[name].dist), platform, port: EXAMPLES[name].port });
      process.stdout.write(`${name} example on ${app.url} (the platform: ${platform}); Ctrl+C stops it\n`);
    }
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
