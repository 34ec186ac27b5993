// The Vue example's build (`npm run example:vue`) and dev server
// (`npx vite --config examples/vue/vite.config.ts`, http://127.0.0.1:5175/).
import vue from '@vitejs/plugin-vue';
import { isCustomElement } from 'bim-viewers/vue';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The platform's paths go to the platform, so the app and the API share one origin
// (the OAuth redirect comes back to this page; no CORS setup).
const platform = process.env.PLATFORM_URL ?? 'http://127.0.0.1:3000';
const proxy = Object.fromEntries(['/1.0', '/oauth2', '/v2', '/bcf'].map((path) => [path, platform]));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // isCustomElement: Vue renders <bim-viewer-3d> as the element instead of looking for a component.
  plugins: [vue({ template: { compilerOptions: { isCustomElement } } })],
  // The viewers (three.js, lit) make one chunk of about 1 MB: expected, not a warning.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  // 127.0.0.1, as the app's registered OAuth callback says (localhost would be another origin).
  server: { host: '127.0.0.1', port: 5175, strictPort: true, proxy },
});
