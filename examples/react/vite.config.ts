// The React example's build (`npm run example:react`) and dev server
// (`npx vite --config examples/react/vite.config.ts`, http://127.0.0.1:5174/).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const platform = process.env.PLATFORM_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // The viewers (three.js, lit, the viewer's core) make one chunk of about 1.1 MB.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    host: '127.0.0.1',
    port: 5174,
    strictPort: true,
    // The app calls the platform on its own origin (OAuth, projects, viewers' data, BCF).
    proxy: Object.fromEntries(['/1.0', '/oauth2', '/v2', '/bcf'].map((path) => [path, platform])),
  },
});
