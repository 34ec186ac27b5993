// preload() (core/engine.ts): the IFC engine starts before any viewer, and the first
// viewer takes it instead of starting a worker of its own; setEngineLoading('lazy'): no
// engine until an IFC file is to be read.
import { preload, setEngineLoading } from '../src/core/engine';
import { setWasmUrl } from '../src/core/ifc/assets';
import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS } from './support/viewer';
import { sceneOf, truthOf } from './support/samples';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

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

  it('the first viewer after preload() takes its worker; the next starts its own', async () => {
    assertEqual(await preload(), true, 'preload resolves once web-ifc is ready');
    const drawn = (await truthOf(MODELS.cabin)).products.filter((p) => p.box && p.type !== 'IfcSpace').length;
    const first = await workersStarted(async () => {
      viewers.push(await createViewer(320, 240));
      await viewers[0].loadUrl(MODELS.cabin);
    });
    assertEqual(first, 0, 'no worker started for the first viewer');
    assertEqual((await viewers[0].renderInfo()).objects, drawn + (await truthOf(MODELS.cabin)).spaces.length, 'its model loaded');
    const second = await workersStarted(async () => {
      viewers.push(await createViewer(320, 240));
    });
    assertEqual(second, 1, 'the second viewer started its own worker');
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
      await viewers[0].loadModel(sceneOf(MODELS.house), { modelId: 'house' });
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
