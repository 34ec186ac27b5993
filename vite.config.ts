import { defineConfig } from 'vite';
import { tokenApi } from './demo/server/token-api.js';

// The demo (npm start) and the browser tests share this config: vite serves the
// sources, the sample models in public/ and the demo backend's token API.
export default defineConfig({
  publicDir: 'public',
  plugins: [tokenApi()],
  server: { port: 5173, host: '127.0.0.1' },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['web-ifc'] },
});
