// Bench-only vite config: builds bench/pages/*.html (one page per viewer) into bench/dist/,
// served statically by bench/run.mjs. The project's own vite.config.ts is for the demo and
// tests; this one adds nothing to src/ and takes nothing from it but the source files.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { webIfcLazySchemas } from '../scripts/web-ifc-lazy-schemas.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const srcDir = resolve(here, '..', 'src');
const pages = ['ours', 'ours-scene', 'ours-pair', 'thatopen', 'xeokit', 'raw', 'pointcloud-ours', 'pointcloud-potree'];

export default defineConfig({
  root: resolve(here, 'pages'),
  base: './',
  logLevel: 'warn',
  publicDir: false,
  // Our src/ gets web-ifc as the project's own builds give it; the peers get it as published.
  plugins: [webIfcLazySchemas({ srcDir })],
  worker: { format: 'es', plugins: () => [webIfcLazySchemas({ srcDir })] },
  optimizeDeps: { exclude: ['web-ifc'] },
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Minified like the bundles users ship (dist/), the same for every viewer: script text
    // is part of each page's and worker's heap. bench/profile.mjs builds with
    // BENCH_MINIFY=0 so that CPU profiles name functions.
    minify: process.env.BENCH_MINIFY !== '0',
    sourcemap: true,
    chunkSizeWarningLimit: 10000,
    reportCompressedSize: false,
    rollupOptions: {
      input: Object.fromEntries(pages.map((p) => [p, resolve(here, 'pages', `${p}.html`)])),
    },
  },
});
