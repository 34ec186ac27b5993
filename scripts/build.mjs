#!/usr/bin/env node
// npm run build: the distributable files.
//
//   dist/viewer3d.js (+ .map)      script-tag bundle (IIFE, minified; lit, three inside)
//   dist/viewer2d.js (+ .map)      the 2D viewer's script-tag bundle (IIFE, minified; lit, d3 inside)
//   dist/viewer.js (+ .map)        the viewer widget's script-tag bundle (IIFE; lit inside, no viewer)
//   dist/ifc-worker.js (+ .map)    the IFC worker, a classic self-contained script (web-ifc inside)
//   dist/plan-worker.js (+ .map)   the 2D viewer's plan worker, the same way
//   dist/web-ifc-ifc2x3.js, web-ifc-ifc4.js, web-ifc-ifc4x3.js   web-ifc's tables of each
//                                  schema, which the workers load when they open a model
//                                  of it (scripts/web-ifc-lazy-schemas.mjs)
//   dist/web-ifc.wasm              web-ifc's wasm, loaded by the workers from beside the bundles
//   dist/npm/index.js (+ .map)     npm entry (ESM; lit, three, web-ifc, d3 stay external)
//   dist/npm/react.js, vue.js      `bim-viewers/react` (components, JSX types), `bim-viewers/vue` (docs/frameworks/)
//   dist/npm/ifc-worker.js, dist/npm/plan-worker.js, dist/npm/web-ifc*   beside it
//   dist/types/**.d.ts             declarations (tsc -p tsconfig.build.json)
//   custom-elements.json           element manifest (cem analyze)
//   dist/console/                  the platform's console (demo/console, an app served at
//                                  /console/; its IFC and plan workers and web-ifc.wasm are
//                                  its own assets, from src/core/ifc/assets.ts as in vite)
//
// In both built flavours src/core/ifc/assets.ts (vite-only: `?url` import, module
// worker from source) is replaced by assets.dist.ts, which finds the worker and the
// wasm beside the built file at run time; nothing is inlined.
//
// Options: --skip-types, --skip-manifest (for a quick bundle-only build, e.g. in tests);
// --console-only builds dist/console alone and leaves the rest of dist/ as it is.
import { build } from 'vite';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SCHEMA_GLOBAL, webIfcLazySchemas } from './web-ifc-lazy-schemas.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const args = new Set(process.argv.slice(2));

/** Puts assets.dist.ts in place of src/core/ifc/assets.ts, however it is imported. */
function distAssets() {
  const source = join(root, 'src/core/ifc/assets.ts').replace(/\\/g, '/');
  const replacement = join(root, 'src/core/ifc/assets.dist.ts');
  return {
    name: 'bim-dist-assets',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      if (!/assets(\.[jt]s)?$/.test(id)) return null;
      const resolved = await this.resolve(id, importer, { ...options, skipSelf: true });
      if (resolved && resolved.id.replace(/\\/g, '/').endsWith('src/core/ifc/assets.ts')) return replacement;
      return null;
    },
    // A guard: if the swap ever misses, fail the build rather than inline a 1.3 MB wasm.
    load(id) {
      if (id.replace(/\\/g, '/') === source) throw new Error('assets.ts reached a dist build: the assets.dist.ts swap failed');
      return null;
    },
  };
}

/** Shared settings: no public/ copying, no dev plugins, our own tsconfig options. */
function base(extra) {
  return {
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    // Classic: the built workers are classic scripts, which load a schema's tables with importScripts.
    plugins: [distAssets(), webIfcLazySchemas({ srcDir: join(root, 'src'), classic: true })],
    ...extra,
    build: {
      emptyOutDir: false,
      sourcemap: true,
      reportCompressedSize: false,
      target: 'es2022',
      ...extra.build,
    },
  };
}

/** The schema files' names, by web-ifc's schema number (as src/core/ifc/assets.dist.ts names them). */
const SCHEMA_FILES = { 1: 'web-ifc-ifc2x3.js', 2: 'web-ifc-ifc4.js', 3: 'web-ifc-ifc4x3.js' };

const external = [/^lit(\/|$)/, /^@lit\//, /^three(\/|$)/, /^web-ifc(\/|$)/, /^d3-/];

async function buildAll() {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, 'npm'), { recursive: true });

  // 1. The script-tag bundles: 3D, 2D, and the widget (no viewer inside it; the 3D
  //    bundle loads viewer.js from beside itself).
  for (const [entry, name, file] of [
    ['src/bundles/viewer3d.ts', 'bimViewer3dBundle', 'viewer3d.js'],
    ['src/bundles/viewer2d.ts', 'bimViewer2dBundle', 'viewer2d.js'],
    ['src/bundles/viewer-ui.ts', 'bimViewerUiBundle', 'viewer.js'],
  ]) {
    await build(base({
      define: { __BIM_IIFE__: 'true' },
      build: {
        outDir: dist,
        minify: true,
        lib: { entry: join(root, entry), formats: ['iife'], name, fileName: () => file },
      },
    }));
  }

  // 2. The IFC and plan workers: classic scripts (importScripts-able from a Blob worker).
  //    web-ifc reads import.meta.url only on its multi-threaded path, which is never taken.
  for (const [entry, name, file] of [
    ['src/core/ifc/ifc-worker.ts', 'bimIfcWorker', 'ifc-worker.js'],
    ['src/core/plan/plan-worker.ts', 'bimPlanWorker', 'plan-worker.js'],
  ]) {
    await build(base({
      define: { 'import.meta.url': 'self.location.href' },
      build: {
        outDir: dist,
        minify: true,
        lib: {
          entry: join(root, entry),
          formats: ['iife'],
          name,
          fileName: () => file,
        },
      },
    }));
  }
  //    web-ifc's tables of each schema, apart: classic scripts defining bimWebIfcSchema<n>.
  for (const [n, file] of Object.entries(SCHEMA_FILES)) {
    await build(base({
      build: {
        outDir: dist,
        minify: true,
        lib: { entry: `virtual:web-ifc-schema/${n}`, formats: ['iife'], name: `${SCHEMA_GLOBAL}${n}`, fileName: () => file },
      },
    }));
  }
  copyFileSync(join(root, 'node_modules/web-ifc/web-ifc.wasm'), join(dist, 'web-ifc.wasm'));

  // 3. The npm entry (ESM), dependencies external, worker and wasm beside it.
  await build(base({
    define: { __BIM_IIFE__: 'false' },
    build: {
      outDir: join(dist, 'npm'),
      minify: false,
      lib: {
        entry: join(root, 'src/index.ts'),
        formats: ['es'],
        fileName: () => 'index.js',
      },
      rolldownOptions: { external },
    },
  }));
  unhideAssetUrls(join(dist, 'npm/index.js'));
  for (const file of ['ifc-worker.js', 'ifc-worker.js.map', 'plan-worker.js', 'plan-worker.js.map', ...Object.values(SCHEMA_FILES)]) {
    copyFileSync(join(dist, file), join(dist, 'npm', file));
  }
  copyFileSync(join(dist, 'web-ifc.wasm'), join(dist, 'npm/web-ifc.wasm'));

  // The framework adapters, each importing the elements from index.js (one copy of them).
  await build({
    ...base({
      build: {
        outDir: join(dist, 'npm'),
        minify: false,
        lib: { entry: { react: join(root, 'src/react/index.ts'), vue: join(root, 'src/vue/index.ts') }, formats: ['es'], fileName: (_format, name) => `${name}.js` },
        rolldownOptions: { external: [...external, /^react(\/|$)/, /^vue$/, 'bim-viewers-index'], output: { paths: { 'bim-viewers-index': './index.js' } } },
      },
    }),
    plugins: [{
      name: 'bim-adapters-import-index',
      enforce: 'pre',
      resolveId: (id, importer) => (id === '../index.js' && /src[\\/](react|vue)[\\/]/.test(importer ?? '') ? { id: 'bim-viewers-index', external: true } : null),
    }],
  });

  checkNotInlined();

  // 4. The console: an app like any vite app using the sources (so not the swap above).
  await buildConsole();

  // 5. Declarations and the custom elements manifest.
  if (!args.has('--skip-types')) run('npx', ['tsc', '-p', 'tsconfig.build.json']);
  if (!args.has('--skip-manifest')) run('npm', ['run', '--silent', 'analyze']);

  printSizes();
}

/**
 * demo/console as a vite app with base /console/ (server/pages.ts serves it there): the
 * normal assets.ts, so vite emits the IFC and plan workers (each with the lazy schemas)
 * and web-ifc.wasm as the console's own hashed assets.
 */
async function buildConsole() {
  const srcDir = join(root, 'src');
  const outDir = join(dist, 'console');
  rmSync(outDir, { recursive: true, force: true });
  await build({
    configFile: false,
    root: join(root, 'demo/console'),
    base: '/console/',
    publicDir: false,
    logLevel: 'warn',
    plugins: [webIfcLazySchemas({ srcDir })],
    worker: { format: 'es', plugins: () => [webIfcLazySchemas({ srcDir })] },
    optimizeDeps: { exclude: ['web-ifc'] },
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: true,
      reportCompressedSize: false,
      target: 'es2022',
      chunkSizeWarningLimit: 4096,
    },
  });
  const assets = readdirSync(join(outDir, 'assets'));
  for (const [what, pattern] of [['the IFC worker', /^ifc-worker-.*\.js$/], ['the plan worker', /^plan-worker-.*\.js$/], ['web-ifc.wasm', /^web-ifc-.*\.wasm$/]]) {
    if (!assets.some((f) => pattern.test(f))) throw new Error(`dist/console/assets has no ${what} (${assets.join(', ')})`);
  }
}

/**
 * assets.dist.ts writes `new URL(/* @vite-ignore *\/ './ifc-worker.js', import.meta.url)`
 * so that our own build leaves it alone; in the published file the comment goes (blanked
 * to spaces of the same length, so the source map stays exact), and an app's bundler
 * (vite, webpack) recognises the pattern and emits the worker and the wasm with its chunks.
 */
function unhideAssetUrls(file) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(/\/\*\s*@vite-ignore\s*\*\//g, (comment) => ' '.repeat(comment.length));
  if (out === text) throw new Error(`${file}: expected the asset URLs of assets.dist.ts`);
  writeFileSync(file, out);
}

function run(command, argv) {
  const result = spawnSync(command, argv, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed (exit ${result.status})`);
}

/** The built JS must reference the wasm, the workers and the schema files, not embed them. */
function checkNotInlined() {
  for (const file of ['ifc-worker.js', 'plan-worker.js']) {
    if (readFileSync(join(dist, file), 'utf8').includes('IfcActorRole')) throw new Error(`${file} holds web-ifc's schema classes (scripts/web-ifc-lazy-schemas.mjs)`);
  }
  const needs = {
    'viewer3d.js': ['ifc-worker.js', 'web-ifc.wasm', ...Object.values(SCHEMA_FILES)],
    'viewer2d.js': ['plan-worker.js', 'web-ifc.wasm', ...Object.values(SCHEMA_FILES)],
    'npm/index.js': ['ifc-worker.js', 'plan-worker.js', 'web-ifc.wasm', ...Object.values(SCHEMA_FILES)],
  };
  for (const [file, names] of Object.entries(needs)) {
    const text = readFileSync(join(dist, file), 'utf8');
    // web-ifc's wasm (MBs) is served beside the code; hash-wasm's CRC-32 (a few kB, formats/checksum.ts) comes inlined in its package.
    const inlined = [...text.matchAll(/AGFzbQ[A-Za-z0-9+/=]*/g)].map((m) => m[0].length);
    if (/data:application\/wasm/.test(text) || inlined.some((n) => n > 64 * 1024)) throw new Error(`${file} inlines a wasm`);
    if (/new URL\(\s*["'`]data:/.test(text)) throw new Error(`${file} inlines an asset (a worker?) as a data: URL`);
    for (const name of names) {
      if (!text.includes(name)) throw new Error(`${file} does not load ${name} from beside itself`);
    }
  }
}

function printSizes() {
  const files = [
    'viewer3d.js', 'viewer2d.js', 'viewer.js', 'ifc-worker.js', 'plan-worker.js', ...Object.values(SCHEMA_FILES), 'web-ifc.wasm',
    'npm/index.js', 'npm/ifc-worker.js', 'npm/plan-worker.js', 'npm/web-ifc.wasm',
  ];
  const rows = files.map((file) => {
    const bytes = readFileSync(join(dist, file));
    return [relative(root, join(dist, file)), kb(statSync(join(dist, file)).size), kb(gzipSync(bytes).length)];
  });
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log('\nbuilt:');
  for (const [name, size, gz] of rows) console.log(`  ${name.padEnd(width)}  ${size.padStart(10)}  gzip ${gz.padStart(10)}`);
  if (!args.has('--skip-types')) console.log('  dist/types/index.d.ts (declarations)');
  if (!args.has('--skip-manifest')) console.log('  custom-elements.json');
  console.log('  dist/console/ (the platform\'s console)');
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

(args.has('--console-only') ? buildConsole() : buildAll()).catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
