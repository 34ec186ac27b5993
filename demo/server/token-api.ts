import { join } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { demoPages } from './pages.js';
import { bcfFiles, realModelFiles, sampleFiles } from './model-files.js';
import { sceneFiles } from './scene-files.js';
import { pointcloudFiles } from './pointcloud-files.js';
import { serveDirectory, serveFiles, vendorFiles } from './static-files.js';
import { TokenStore } from './tokens.js';
import { VIEWER2D, VIEWER3D, tokenRoutes } from './token-routes.js';

/**
 * The embedded default backend of the demo and the browser tests, as a vite plugin
 * (dev server and `vite preview`). Routes are listed in demo/README.md:
 *
 *   POST /v2/projects/{project}/viewer3d/token, GET /v2/projects/{project}/viewer3d/data?token=
 *   POST /v2/projects/{project}/viewer2d/token, GET /v2/projects/{project}/viewer2d/geometry?token=
 *   /samples/<name>.ifc|json   sample buildings and their truth (generated, samples/)
 *   /models/<file>             real models from the BIM_MODELS folder (default ../shared/models)
 *   /bcf/<path>                BCF schemas and test cases from the BIM_BCF folder (default ../shared/bcf)
 *   /scenes/samples/<name>.scene|.plans|.products, /scenes/models/...   their scenes, plans (converted on first use) and product records
 *   /pointclouds/<scan>.pointcloud   scans from the BIM_POINTCLOUDS folder as point cloud files (converted on first use, range requests)
 *   /dist/*    the script-tag bundles from `npm run build`
 *   /vendor/*  jQuery 1.12.4, 2.2.4 and 4.0.0
 *   /demo/*.html, /   the demo pages, rendered with fresh token URLs
 */
export function tokenApi(): Plugin {
  const store = new TokenStore();
  let root = process.cwd();

  const middlewares = (server?: ViteDevServer) => [
    tokenRoutes(store, VIEWER3D),
    tokenRoutes(store, VIEWER2D),
    sampleFiles(),
    realModelFiles(),
    bcfFiles(),
    sceneFiles(),
    pointcloudFiles(),
    serveDirectory('/dist/', join(root, 'dist'), 'not built yet: run `npm run build` (npm start does it for you)'),
    serveFiles(vendorFiles(root)),
    demoPages(root, store, () => server?.transformIndexHtml.bind(server)),
  ];

  return {
    name: 'bim-token-api',
    configResolved(config) {
      root = config.root;
    },
    configureServer(server) {
      for (const middleware of middlewares(server)) server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      for (const middleware of middlewares()) server.middlewares.use(middleware);
    },
  };
}
