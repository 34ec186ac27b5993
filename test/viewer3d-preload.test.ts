// preload() (core/engine.ts): the IFC engine starts before any viewer, and the first
// viewer takes it instead of starting a worker of its own; setEngineLoading('lazy'): no
// engine until an IFC file is to be read.
import { preload, setEngineLoading } from '../src/core/engine';
import { setWasmUrl } from '../src/core/ifc/assets';
import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS } from './support/viewer';
import { truthOf } from './support/samples';
import { compareScreenshot } from './support/screenshot';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

/** Counts the WebGL contexts the page creates while `run` runs. */
async function contextsCreated(run: () => Promise<void>): Promise<number> {
  const original = HTMLCanvasElement.prototype.getContext;
  let created = 0;
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, ...args: Parameters<typeof original>) {
    const known = contexts.has(this);
    const context = original.apply(this, args);
    if (context && !known && /webgl/.test(String(args[0]))) created++;
    if (context) contexts.add(this);
    return context;
  } as typeof original;
  try {
    await run();
  } finally {
    HTMLCanvasElement.prototype.getContext = original;
  }
  return created;
}
const contexts = new WeakSet<HTMLCanvasElement>();

/** Counts the WebGL programs linked while `run` runs. */
async function programsLinked(run: () => Promise<void>): Promise<number> {
  const original = WebGL2RenderingContext.prototype.linkProgram;
  let linked = 0;
  WebGL2RenderingContext.prototype.linkProgram = function (this: WebGL2RenderingContext, program: WebGLProgram) {
    linked++;
    original.call(this, program);
  };
  try {
    await run();
  } finally {
    WebGL2RenderingContext.prototype.linkProgram = original;
  }
  return linked;
}

/** Counts the workers the page starts while `run` runs. */
async function workersStarted(run: () => Promise<void>): Promise<number> {
  const original = window.Worker;
  let started = 0;
  window.Worker = class extends original {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      super(...args);
      started++;
    }
  };
  try {
    await run();
  } finally {
    window.Worker = original;
  }
  return started;
}

describe('preload: the IFC engine before the viewer', () => {
  const viewers: BimViewer3d[] = [];
  afterEach(async () => {
    setWasmUrl(null);
    setEngineLoading('eager');
    while (viewers.length) await removeViewer(viewers.pop());
  });

  it('the first viewer after preload() takes its worker and its renderer; the next starts its own', async () => {
    assertEqual(await preload(), true, 'preload resolves once web-ifc is ready');
    const drawn = (await truthOf(MODELS.cabin)).products.filter((p) => p.box && p.type !== 'IfcSpace').length;
    let first = 0;
    let linked = 0;
    const contexts = await contextsCreated(async () => {
      first = await workersStarted(async () => {
        linked = await programsLinked(async () => {
          viewers.push(await createViewer(320, 240));
          await viewers[0].loadUrl(MODELS.cabin);
          await viewers[0].renderInfo(); // a frame drawn now, with the grids and their tags
        });
      });
    });
    assertEqual(first, 0, 'no worker started for the first viewer');
    assertEqual(contexts, 0, 'no WebGL context made for it: it took the one preload() made');
    assertEqual(linked, 0, 'and no shader program linked for it: its batch, grid and tag shaders were compiled already');
    assert((await viewers[0].getGrids()).length > 0, 'the cabin has grids');
    assertEqual((await viewers[0].renderInfo()).objects, drawn + (await truthOf(MODELS.cabin)).spaces.length, 'its model loaded');
    let second = 0;
    const secondContexts = await contextsCreated(async () => {
      second = await workersStarted(async () => {
        viewers.push(await createViewer(320, 240));
      });
    });
    assertEqual(second, 1, 'the second viewer started its own worker');
    assertEqual(secondContexts, 1, 'and made its own WebGL context');
    // The preloaded renderer draws as a viewer's own does.
    await viewers[1].loadUrl(MODELS.cabin);
    const result = await compareScreenshot('viewer3d/preloaded-renderer', await viewers[0].screenshot(), { expectedDataUrl: await viewers[1].screenshot(), tolerance: 0.001 });
    assert(result.ok, result.message ?? '');
  });

  it('a viewer made before the preloaded renderer is ready makes its own, and none is made after it', async () => {
    const contexts = await contextsCreated(async () => {
      void preload();
      viewers.push(await createViewer(320, 240)); // at once: the worker has not started yet
      await viewers[0].loadUrl(MODELS.cabin); // its worker, the preloaded one, has started and answered
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    assertEqual(contexts, 1, 'one WebGL context: the viewer\'s');
  });

  it('an engine that could not start is not handed out: a viewer after fixing the wasm URL loads', async () => {
    setWasmUrl('/no-such-dir/web-ifc.wasm');
    assertEqual(await preload(), false, 'preload says it could not start');
    setWasmUrl(null);
    const started = await workersStarted(async () => {
      viewers.push(await createViewer(320, 240));
      await viewers[0].loadUrl(MODELS.cabin);
    });
    assertEqual(started, 1, 'a new worker with the right wasm');
    assert((await viewers[0].each()).length > 0, 'the model loaded');
  });

  it('lazy: a scene loads without a worker or web-ifc; an IFC file after it starts the engine', async () => {
    setEngineLoading('lazy');
    const fetchedBefore = performance.getEntriesByType('resource').length;
    const forScene = await workersStarted(async () => {
      viewers.push(await createViewer(320, 240));
      await viewers[0].loadModel(MODELS.house.replace(/^\/samples\/(.*)\.ifc$/, '/scenes/samples/$1.scene'), { modelId: 'house' });
    });
    assertEqual(forScene, 0, 'no worker started for the scene');
    const fetched = performance.getEntriesByType('resource').slice(fetchedBefore).map((e) => e.name);
    assert(!fetched.some((name) => /web-ifc|ifc-worker/.test(name)), `nothing of web-ifc fetched: ${fetched.join(', ')}`);
    assert((await viewers[0].each()).length > 20, 'the house is in');
    const forIfc = await workersStarted(async () => {
      await viewers[0].loadModel(MODELS.cabin, { modelId: 'cabin' });
    });
    assertEqual(forIfc, 1, 'the IFC file started the engine');
    assertEqual((await viewers[0].modelInfo()).length, 2, 'both models in');
  });

  it('lazy: a viewer still takes an engine the page preloaded', async () => {
    setEngineLoading('lazy');
    assertEqual(await preload(), true);
    const started = await workersStarted(async () => {
      viewers.push(await createViewer(320, 240));
      await viewers[0].loadUrl(MODELS.cabin);
    });
    assertEqual(started, 0, 'the preloaded worker read the model');
    assert((await viewers[0].each()).length > 0, 'the model loaded');
  });
});
