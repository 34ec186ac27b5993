// Bench-only vite config: builds bench/pages/*.html (one page per viewer) into bench/dist/,
// served statically by bench/run.mjs. The project's own vite.config.ts is for the demo and
// tests; this one adds nothing to src/ and takes nothing from it but the source files.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const pages = ['ours', 'thatopen', 'xeokit', 'raw'];

export default defineConfig({
  root: resolve(here, 'pages'),
  base: './',
  logLevel: 'warn',
  publicDir: false,
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['web-ifc'] },
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Not minified, so that CPU profiles (bench/profile.mjs) name functions; the same for every viewer.
    minify: false,
    sourcemap: true,
    chunkSizeWarningLimit: 10000,
    reportCompressedSize: false,
    rollupOptions: {
      input: Object.fromEntries(pages.map((p) => [p, resolve(here, 'pages', `${p}.html`)])),
    },
  },
});
