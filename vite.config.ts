import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { tokenApi } from './demo/server/token-api.js';
import { webIfcLazySchemas } from './scripts/web-ifc-lazy-schemas.mjs';

const srcDir = fileURLToPath(new URL('./src', import.meta.url));

// The demo (npm start) and the browser tests share this config: vite serves the
// sources and the demo backend (token API, sample buildings, real models from BIM_MODELS).
export default defineConfig({
  publicDir: false,
  plugins: [tokenApi(), webIfcLazySchemas({ srcDir })],
  server: { port: 5173, host: '127.0.0.1' },
  worker: { format: 'es', plugins: () => [webIfcLazySchemas({ srcDir })] },
  optimizeDeps: { exclude: ['web-ifc'] },
});
