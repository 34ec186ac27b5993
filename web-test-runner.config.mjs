// Browser tests: `npm test` (scripts/test.mjs finds a Chrome/Chromium and sets CHROME_PATH).
// Files are served by vite (test/support/vite-bridge.mjs), like the demo.
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { viteBridge } from './test/support/vite-bridge.mjs';
import { compareScreenshotPlugin } from './test/support/screenshot-plugin.mjs';
import { soakPlugin } from './test/support/soak-plugin.mjs';
import { countReporter } from './test/support/count-reporter.mjs';
import { CHROMIUM_FLAGS } from './scripts/find-browser.mjs';
import { oversizedRoute } from './test/support/oversized-route.mjs';
import { pointcloudRoute } from './test/support/pointcloud-route.mjs';
import { cspRoute } from './test/support/csp-route.mjs';
import { workerHeapPlugin } from './test/support/worker-heap-plugin.mjs';

const minute = 60_000;
const vite = viteBridge();

export default {
  rootDir: '.',
  // test/real-models/ reads files from the BIM_MODELS folder, test/*bcf*.test.ts from BIM_BCF,
  // test/*real-scans*.test.ts from BIM_POINTCLOUDS;
  // scripts/test.mjs leaves them out when there is none
  files: [
    'test/**/*.test.ts',
    '!test/node/**', // Node's own tests (no DOM), run by scripts/server-tests.mjs
    ...(process.env.BIM_REAL_MODELS === '0' ? ['!test/real-models/**'] : []),
    ...(process.env.BIM_BCF_CASES === '0' ? ['!test/*bcf*.test.ts'] : []),
    ...(process.env.BIM_POINTCLOUD_SCANS === '0' ? ['!test/*real-scans*.test.ts'] : []),
  ],
  nodeResolve: false, // vite resolves modules
  staticLogging: !!process.env.CI || !process.stdout.isTTY, // no progress-bar redraws in logs
  concurrency: 1, // WebGL is software-rendered (SwiftShader): one page at a time
  concurrentBrowsers: 1,
  browserStartTimeout: 2 * minute,
  testsStartTimeout: 5 * minute, // first page load waits for vite's dependency optimizer
  testsFinishTimeout: 10 * minute, // per test file; tests load real IFC files
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROME_PATH || undefined,
        headless: true,
        args: CHROMIUM_FLAGS,
      },
    }),
  ],
  testFramework: {
    config: { ui: 'bdd', timeout: 120_000 },
  },
  middleware: [oversizedRoute, pointcloudRoute, cspRoute, vite.middleware],
  plugins: [vite.plugin, compareScreenshotPlugin(), soakPlugin(), workerHeapPlugin()],
  reporters: [defaultReporter(), countReporter()],
};
