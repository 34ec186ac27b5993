import { executeServerCommand } from '@web/test-runner-commands';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelDifference } from './support/viewer';
import { soaking, writeSoakFigures } from './support/soak';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { WorkerMemory } from '../src/core/ifc/protocol';
import { sceneOf } from './support/samples';

/**
 * Long sessions (issue 22, part 6): a page that loads and unloads models for hours must
 * end where it started. Each kind of model (IFC, scene) is loaded, drawn and unloaded
 * N times (10 under `npm test`, 100 under `npm run soak -- long-sessions`), and the page's
 * heap, the IFC worker's heap and wasm memory, three's GPU geometries and textures and the
 * WebGL buffers and textures alive on the context must come back within 10 % of what they
 * were after the first cycle (shaders, the worker and web-ifc are made once). Then a
 * WebGL context lost in the middle of a load: the load ends and the model is drawn.
 */

interface Core {
  renderer: { getContext(): WebGL2RenderingContext; info: { memory: { geometries: number; textures: number } } };
  engineMemory(): Promise<WorkerMemory | null>;
}
const core = (el: BimViewer3d) => (el as unknown as { core: Core }).core;

const pageHeap = () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
async function collect() {
  for (let i = 0; i < 3; i++) {
    (globalThis as unknown as { gc(): void }).gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The IFC workers' JS heaps after a collection, summed (read over DevTools: test/support/worker-heap-plugin.mjs). */
async function workerHeap(): Promise<number> {
  const { workers } = (await executeServerCommand('worker-heap', { prefix: 'bim-ifc' })) as { workers: { usedBytes: number }[] };
  assert(workers.length > 0, 'the IFC worker is found');
  return workers.reduce((sum, w) => sum + w.usedBytes, 0);
}

/**
 * WebGL buffers and textures alive on a context: every create counted until its delete.
 * Wraps the context's own methods, which three calls through the context object.
 */
function countGlObjects(gl: WebGL2RenderingContext) {
  const live = { buffers: new Set<WebGLBuffer>(), textures: new Set<WebGLTexture>() };
  const createBuffer = gl.createBuffer.bind(gl);
  const deleteBuffer = gl.deleteBuffer.bind(gl);
  const createTexture = gl.createTexture.bind(gl);
  const deleteTexture = gl.deleteTexture.bind(gl);
  gl.createBuffer = () => {
    const b = createBuffer();
    if (b) live.buffers.add(b);
    return b;
  };
  gl.deleteBuffer = (b) => {
    if (b) live.buffers.delete(b);
    deleteBuffer(b);
  };
  gl.createTexture = () => {
    const t = createTexture();
    if (t) live.textures.add(t);
    return t;
  };
  gl.deleteTexture = (t) => {
    if (t) live.textures.delete(t);
    deleteTexture(t);
  };
  return () => ({ buffers: live.buffers.size, textures: live.textures.size });
}

/** Everything a cycle might leave behind, measured after a collection. */
async function measure(el: BimViewer3d, glObjects: () => { buffers: number; textures: number }) {
  await collect();
  const worker = (await core(el).engineMemory())!;
  return {
    pageHeap: pageHeap(),
    workerHeap: await workerHeap(),
    workerModels: worker.models,
    wasmBytes: worker.wasmBytes,
    geometries: core(el).renderer.info.memory.geometries,
    textures: core(el).renderer.info.memory.textures,
    glBuffers: glObjects().buffers,
    glTextures: glObjects().textures,
  };
}
type Measure = Awaited<ReturnType<typeof measure>>;

async function waitUntil(condition: () => boolean, what: string, timeout = 60_000) {
  const end = performance.now() + timeout;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`no ${what} within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const MB = (bytes: number) => Math.round(bytes / 1e4) / 100;
const within10 = (after: number, before: number) => after <= before * 1.1;

/** Loads, draws and unloads one model `cycles` times after a warm-up cycle; checks and returns the figures. */
async function cycles(kind: 'ifc' | 'scene', count: number) {
  const el = await createViewer(320, 240);
  try {
    const glObjects = countGlObjects(core(el).renderer.getContext());
    let loadedBuffers = 0;
    const cycle = async () => {
      if (kind === 'ifc') await el.loadUrl(MODELS.house);
      else await el.loadModel(sceneOf(MODELS.house), { modelType: 'bim', modelId: 'house' });
      await el.screenshot();
      loadedBuffers = glObjects().buffers;
      await el.unloadModel('house');
    };
    // Warm-up: shaders, the worker's web-ifc and its schema tables are made once, and
    // web-ifc's wasm memory (which never shrinks) reaches its high-water mark in the second load.
    await cycle();
    await cycle();
    assert(loadedBuffers > 0, `the counter sees the model's WebGL buffers (${loadedBuffers})`);
    const before = await measure(el, glObjects);
    const started = performance.now();
    for (let i = 0; i < count; i++) await cycle();
    const cycleMs = (performance.now() - started) / count;
    const after = await measure(el, glObjects);
    console.log(`${kind}: ${count} cycles, ${cycleMs.toFixed(0)} ms each; before ${JSON.stringify(before)}; after ${JSON.stringify(after)}`);
    const grew = (name: keyof Measure) => `${kind}: ${name} grew from ${before[name]} to ${after[name]} in ${count} cycles`;
    assert(within10(after.pageHeap, before.pageHeap), grew('pageHeap'));
    assert(within10(after.workerHeap, before.workerHeap), grew('workerHeap'));
    assert(within10(after.wasmBytes, before.wasmBytes), grew('wasmBytes'));
    assertEqual(after.workerModels, before.workerModels, grew('workerModels'));
    assertEqual(after.geometries, before.geometries, grew('geometries'));
    assertEqual(after.textures, before.textures, grew('textures'));
    assert(within10(after.glBuffers, before.glBuffers), grew('glBuffers'));
    assert(within10(after.glTextures, before.glTextures), grew('glTextures'));
    // Plain numbers for README: each measure before and after the cycles.
    const figures: Record<string, number> = { [`${kind}Cycles`]: count, [`${kind}CycleMs`]: Math.round(cycleMs), [`${kind}GlBuffersLoaded`]: loadedBuffers };
    for (const name of Object.keys(before) as (keyof Measure)[]) {
      const bytes = ['pageHeap', 'workerHeap', 'wasmBytes'].includes(name);
      const key = `${kind}${name[0].toUpperCase()}${name.slice(1).replace('Bytes', '')}${bytes ? 'MB' : ''}`;
      figures[`${key}Before`] = bytes ? MB(before[name]) : before[name];
      figures[`${key}After`] = bytes ? MB(after[name]) : after[name];
    }
    return figures;
  } finally {
    await removeViewer(el);
  }
}

/** Loses the viewer's WebGL context (at once) and gives it back 100 ms after the browser says it is lost. */
function loseAndRestore(el: BimViewer3d): Promise<void> {
  const canvas = el.shadowRoot!.querySelector('canvas')!;
  const lose = core(el).renderer.getContext().getExtension('WEBGL_lose_context')!;
  const lost = new Promise((resolve) => canvas.addEventListener('webglcontextlost', resolve, { once: true }));
  lose.loseContext();
  return (async () => {
    await lost;
    await new Promise((resolve) => setTimeout(resolve, 100)); // restoring inside the lost event is ignored
    const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
    lose.restoreContext();
    await restored;
  })();
}

/**
 * Loads a model, losing the context once its first geometry is in the scene, restores it, and
 * checks: the load ends (resolves, or rejects with a typed error, after which a second
 * load works), no error escapes, and the model is drawn as a viewer that lost nothing draws it.
 */
async function lostDuringLoad(load: (el: BimViewer3d) => Promise<unknown>) {
  const reference = await createViewer(320, 240);
  let expected: string;
  try {
    await load(reference);
    expected = await reference.screenshot();
  } finally {
    await removeViewer(reference);
  }
  const el = await createViewer(320, 240);
  const uncaught: string[] = [];
  const onError = (e: ErrorEvent) => uncaught.push(e.message);
  const onRejection = (e: PromiseRejectionEvent) => uncaught.push(String(e.reason));
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  try {
    // The context goes as soon as the first chunk of geometry is in the scene, while more are coming.
    const viewer = core(el) as unknown as { addChunk: (...args: unknown[]) => void };
    const addChunk = viewer.addChunk.bind(viewer);
    let back: Promise<void> | null = null;
    let chunksAfter = 0;
    viewer.addChunk = (...args) => {
      addChunk(...args);
      if (back) chunksAfter++;
      else back = loseAndRestore(el);
    };
    const loading = load(el).then(() => null, (error: unknown) => error as { type?: string; message?: string });
    await waitUntil(() => back !== null, 'the first chunk');
    await back;
    const error = await Promise.race([loading, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the load hung after the context came back')), 60_000))]);
    if (error) {
      assert(typeof error.type === 'string' && typeof error.message === 'string' && error.message.length > 0, `a clear error: ${JSON.stringify(error)}`);
      await load(el);
    }
    assert(chunksAfter > 0, 'chunks came after the context was lost: it was lost in the middle of the load');
    const difference = await pixelDifference(expected, await el.screenshot());
    assert(difference < 0.002, `the model is drawn after the context came back (difference ${difference})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assertDeepEqual(uncaught, [], 'no uncaught error');
    console.log(`context lost during a load, ${chunksAfter} chunks after: ${error ? `rejected (${error.type}: ${error.message})` : 'resolved'}`);
    return error ? 'rejected' : 'resolved';
  } finally {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    await removeViewer(el);
  }
}

describe('long sessions', () => {
  let soak = false;
  const figures: Record<string, unknown> = {};
  before(async () => {
    soak = await soaking();
  });
  after(async () => {
    if (soak) await writeSoakFigures('long-sessions', figures);
  });

  it('IFC load/unload cycles return page heap, worker heap and GPU memory to the baseline', async function () {
    this.timeout(soak ? 30 * 60_000 : 120_000);
    Object.assign(figures, await cycles('ifc', soak ? 100 : 10));
  });

  it('scene load/unload cycles return page heap and GPU memory to the baseline', async function () {
    this.timeout(soak ? 30 * 60_000 : 120_000);
    Object.assign(figures, await cycles('scene', soak ? 100 : 10));
  });

  it('a WebGL context lost while an IFC loads: the load ends and the model is drawn', async () => {
    figures.contextLostIfc = await lostDuringLoad((el) => el.loadUrl(MODELS.house));
  });

  it('a WebGL context lost while a scene loads: the load ends and the model is drawn', async () => {
    figures.contextLostScene = await lostDuringLoad((el) => el.loadModel(sceneOf(MODELS.house), { modelType: 'bim', modelId: 'house' }));
  });
});

