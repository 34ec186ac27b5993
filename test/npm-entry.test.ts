// The npm build (dist/npm/index.js, from `npm run build`) as an app consumes it through a
// dev server/bundler (vite here): bare imports of lit/three, and the IFC worker and the
// wasm found beside the built file (new URL('./…', import.meta.url)).
import { assert, assertEqual } from './support/assert';
import { SAMPLES, truthOf } from './support/samples';

/* eslint-disable @typescript-eslint/no-explicit-any */
const ENTRY = '/dist/npm/index.js';

describe('dist/npm/index.js (npm entry)', () => {
  it('registers <bim-viewer-3d>, exports the API and loads a model with the worker and wasm beside it', async () => {
    const head = await fetch(ENTRY, { method: 'HEAD' });
    if (head.status !== 200) throw new Error(`${ENTRY} is missing (HTTP ${head.status}): run \`npm run build\` before the tests`);
    // The page maps the package's dependencies, as an app's import map or bundler would.
    const map = document.createElement('script');
    map.type = 'importmap';
    map.textContent = JSON.stringify({
      imports: {
        lit: '/node_modules/lit/index.js',
        'lit/decorators.js': '/node_modules/lit/decorators.js',
        three: '/node_modules/three/build/three.module.js',
        'three/examples/jsm/': '/node_modules/three/examples/jsm/',
        'd3-selection': '/node_modules/d3-selection/dist/d3-selection.mjs',
        'd3-zoom': '/node_modules/d3-zoom/dist/d3-zoom.mjs',
      },
    });
    document.head.append(map);
    // An inline module script, as a page would write it (a dynamic import() with a variable
    // would make vite inject its HMR client into this test).
    const mod: any = await new Promise((resolve, reject) => {
      const w = window as any;
      w.__npmEntryLoaded = resolve;
      const script = document.createElement('script');
      script.type = 'module';
      script.textContent = `import * as m from '${ENTRY}'; window.__npmEntryLoaded(m);`;
      script.onerror = () => reject(new Error(`could not import ${ENTRY}`));
      window.addEventListener('error', (e) => reject(e.error ?? new Error(e.message)), { once: true });
      document.head.append(script);
    });
    for (const name of ['BimViewer3d', 'installViewer3dPlugin', 'setWasmUrl', 'ViewerError', 'VIEWER3D_EVENT_ARGS', 'VIEWER3D_EVENTS', 'BimViewer2d', 'installViewer2dPlugin', 'VIEWER2D_EVENT_ARGS', 'VIEWER2D_EVENTS']) {
      assert(mod[name], `export ${name}`);
    }
    assert(mod.VIEWER3D_EVENTS.includes('viewer.select'), 'event names');
    (window as any).__npmEntryModule = mod;
    assertEqual(customElements.get('bim-viewer-3d'), mod.BimViewer3d);
    const viewer = document.createElement('bim-viewer-3d') as any;
    viewer.style.cssText = 'width:320px;height:240px';
    document.body.append(viewer);
    try {
      const infos = await viewer.loadUrl(SAMPLES.cabin);
      assertEqual(infos.length, 1);
      const products = await viewer.getProducts();
      // Every IfcProduct and the project.
      assertEqual(products.length, (await truthOf(SAMPLES.cabin)).products.length + 1, 'the worker answered');
    } finally {
      await viewer.dispose();
      viewer.remove();
    }
  });

  it('registers <bim-viewer-2d>, whose plan worker is found beside the built file', async () => {
    const mod: any = (window as any).__npmEntryModule;
    assert(mod, 'the module from the first test');
    assertEqual(customElements.get('bim-viewer-2d'), mod.BimViewer2d);
    assert(mod.VIEWER2D_EVENTS.includes('viewer2d.click'), '2D event names');
    const viewer = document.createElement('bim-viewer-2d') as any;
    viewer.style.cssText = 'width:320px;height:240px';
    document.body.append(viewer);
    try {
      await viewer.loadUrl(SAMPLES.cabin);
      const truth = await truthOf(SAMPLES.cabin);
      assertEqual(viewer.getStoreys().length, truth.storeys.length);
      assertEqual(viewer.getSpaces().length, truth.spaces.length);
    } finally {
      await viewer.dispose();
      viewer.remove();
    }
  });
});
