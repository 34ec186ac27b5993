import { assert, assertEqual, assertDeepEqual } from './support/assert';
import { createViewer, removeViewer, record, MODELS } from './support/viewer';
import { compareScreenshot } from './support/screenshot';
import { setWasmUrl } from '../src/core/ifc/assets';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Viewer3d } from '../src/core/viewer3d';
import type { ModelInfo, StreamingProgress } from '../src/core/types';
import { sceneOf } from './support/samples';

/**
 * The scene format (docs/SCENE-FORMAT.md) in the 3D viewer: the demo backend converts
 * each sample with `npm run scene` (/scenes/samples/<name>.scene), and everything the
 * viewer shows and answers must be what it shows and answers for the IFC itself.
 */
const core = (el: BimViewer3d) => (el as unknown as { core: Viewer3d }).core;
const absolute = (url: string) => new URL(url, location.href).href;

/** A manifest URL (a blob: URL) listing one model with these formats. */
function manifest(formats: { type: string; url: string }[], extra: Record<string, unknown> = {}): string {
  const json = { models: [{ id: 'm', name: 'M', objectIdBase: '4294967296', formats: formats.map((f) => ({ ...f, url: absolute(f.url) })), ...extra }] };
  return URL.createObjectURL(new Blob([JSON.stringify(json)], { type: 'application/json' }));
}

/** A blob: URL of a scene's bytes after `change`. */
async function changedScene(url: string, change: (bytes: Uint8Array) => Uint8Array): Promise<string> {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  return URL.createObjectURL(new Blob([change(bytes) as Uint8Array<ArrayBuffer>]));
}

/** What a viewer shows of its one model and answers about it. */
async function describe3d(el: BimViewer3d) {
  const ids = (await el.each()).sort();
  const [info] = await el.modelInfo();
  const products = await el.getProducts(ids);
  const spatial = await core(el).spatialStructure();
  const grids = await el.getGrids();
  const render = await el.renderInfo();
  return { ids, info, products, spatial: spatial.map((s) => s.root), grids, triangles: render.triangles, objects: render.objects };
}

function assertBoxClose(a: ModelInfo['boundingBox'], b: ModelInfo['boundingBox'], message: string) {
  for (const corner of ['min', 'max'] as const) {
    for (const axis of ['x', 'y', 'z'] as const) {
      assert(Math.abs(a[corner][axis] - b[corner][axis]) < 1e-3, `${message}: ${corner}.${axis} ${a[corner][axis]} against ${b[corner][axis]}`);
    }
  }
}

describe('loading scenes', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  it('shows the same objects, boxes, products, storeys and grids as the IFC (house, loadModel of a scene URL)', async () => {
    el = await createViewer(400, 300);
    await el.loadModel(MODELS.house, { modelId: 'house' });
    const fromIfc = await describe3d(el);
    await el.unloadModel('house');
    const progress = record<{ progress: StreamingProgress }>(el, 'viewer.streamingprogress');
    await el.loadModel(sceneOf(MODELS.house), { modelType: 'bim', modelId: 'house' });
    const fromScene = await describe3d(el);
    assertDeepEqual(fromScene.ids, fromIfc.ids, 'the object ids');
    assertBoxClose(fromScene.info.boundingBox, fromIfc.info.boundingBox, 'the model box');
    assertDeepEqual(fromScene.products, fromIfc.products, 'the basic product records');
    assertDeepEqual(fromScene.spatial, fromIfc.spatial, 'the spatial structure');
    assertDeepEqual(fromScene.grids, fromIfc.grids, 'the grids');
    assertEqual(fromScene.triangles, fromIfc.triangles, 'triangles drawn');
    assertEqual(fromScene.objects, fromIfc.objects, 'objects');
    const values = progress.map((p) => p.progress.progress);
    assert(values.every((v, i) => i === 0 || v >= values[i - 1]), `progress never goes back: ${values}`);
    assertEqual(progress.at(-1)?.progress.phase, 'done');
  });

  it('draws the first picture after the first chunk, while the rest still streams over a slow network (an IFC waits)', async () => {
    el = await createViewer(400, 300);
    // The viewer's own frames of a streaming model (not those a camera change asks for).
    const viewer = core(el) as unknown as { streamingFrame: (...args: unknown[]) => void };
    const frame = viewer.streamingFrame.bind(viewer);
    let frames = 0;
    viewer.streamingFrame = (...args) => {
      frames++;
      frame(...args);
    };
    // The house's scene over a slow network: 2 kB every 10 ms.
    const bytes = new Uint8Array(await (await fetch(sceneOf(MODELS.house))).arrayBuffer());
    const original = window.fetch;
    window.fetch = async () => {
      let at = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, (at += 2048)));
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'application/vnd.platform.scene' } });
    };
    try {
      await el.loadModel('/slow/house.scene', { modelId: 'scene' });
    } finally {
      window.fetch = original;
    }
    assert(frames > 0, 'a frame while the scene streamed');
    frames = 0;
    await el.loadModel(MODELS.cabin, { modelId: 'ifc' });
    assertEqual(frames, 0, 'none while a small IFC streams: its first frame comes after 2 s');
  });

  for (const [name, url] of [['house', MODELS.house], ['house-georeferenced', MODELS.houseGeoreferenced], ['house-ifc2x3', MODELS.houseIfc2x3], ['office-2k', MODELS.office2k]] as const) {
    it(`draws the same first picture as the IFC (${name})`, async () => {
      el = await createViewer(480, 360);
      await el.loadModel(url, { modelId: 'm' });
      const ifcShot = await el.screenshot();
      await el.unloadModel('m');
      await el.loadModel(sceneOf(url), { modelId: 'm' });
      const result = await compareScreenshot(`viewer3d/scene-vs-ifc-${name}`, await el.screenshot(), { expectedDataUrl: ifcShot, tolerance: 0.002 });
      assert(result.ok, result.message ?? '');
    });
  }

  it('places a scene whose origin is not the viewer\'s where its IFC lies (house after the georeferenced house)', async () => {
    el = await createViewer(400, 300);
    await el.loadModel(MODELS.house, { modelId: 'alone' });
    const [alone] = await el.modelInfo();
    await el.unloadModel('alone');
    await el.loadModel(MODELS.houseGeoreferenced, { modelId: 'far' }); // the viewer's origin: 2,683 km away
    await el.loadModel(sceneOf(MODELS.house), { modelId: 'house' });
    const [, house] = await el.modelInfo();
    // Float32 positions 2,683 km from the viewer's origin are good to a quarter metre.
    for (const corner of ['min', 'max'] as const) {
      for (const axis of ['x', 'y', 'z'] as const) {
        assert(Math.abs(house.boundingBox[corner][axis] - alone.boundingBox[corner][axis]) < 0.5, `${corner}.${axis}: ${house.boundingBox[corner][axis]} against ${alone.boundingBox[corner][axis]}`);
      }
    }
  });

  it('loads a manifest\'s scene with its objectIdBase, and only the objects of a query', async () => {
    el = await createViewer(400, 300);
    const url = manifest([{ type: 'application/vnd.platform.scene', url: sceneOf(MODELS.house) }]);
    await el.loadUrl(url);
    const all = await el.each();
    assert(all.length > 20 && all.every((id) => BigInt(id) > 4294967296n), `objectIds carry the base: ${all.slice(0, 3)}`);
    const some = all.slice(3, 9);
    await el.unloadModel('m');
    await el.loadUrl(url, { objectId: { $in: some } });
    assertDeepEqual((await el.each()).sort(), [...some].sort(), 'only the objects asked for');
    assertEqual((await el.getProducts(some)).filter(Boolean).length, some.length, 'their products');
  });

  it('asks the manifest\'s products URL for attributes and property sets, by object id', async () => {
    el = await createViewer(400, 300);
    const asked: string[] = [];
    const products = URL.createObjectURL(new Blob(['[]'])); // answers nothing: the basic record stays
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (String(input).startsWith(products)) asked.push(String(input));
      return original(String(input).startsWith(products) ? products : input, init);
    };
    try {
      await el.loadUrl(manifest([{ type: 'application/vnd.platform.scene', url: sceneOf(MODELS.house) }], { products }));
      const ids = (await el.each()).slice(0, 3);
      const records = await el.objectInfo(ids);
      assertDeepEqual(records.map((r) => r?.objectId), ids, 'a record for each id');
      assertEqual(asked.length, 1, 'one request');
      const query = new URL(asked[0]).searchParams;
      assertEqual(query.get('ids'), ids.join(','));
      assertEqual(query.get('attributes'), 'true');
      assertEqual(query.get('definedBy'), 'true');
    } finally {
      window.fetch = original;
    }
    await el.unloadModel('m');
    await el.loadModel(sceneOf(MODELS.house), { modelId: 'bare' });
    const error = await el.objectInfo((await el.each()).slice(0, 1)).then(() => null, (e) => e);
    assertEqual(error?.type, 'scene', 'no products URL: attributes are refused, saying why');
    assert(/products URL/.test(error.message), error.message);
  });

  it('comes back after the WebGL context is lost (the scene is read again)', async () => {
    el = await createViewer(400, 300);
    await el.loadModel(sceneOf(MODELS.house), { modelId: 'house' });
    const before = await el.screenshot();
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const lose = core(el).renderer.getContext().getExtension('WEBGL_lose_context')!;
    const lost = new Promise((resolve) => canvas.addEventListener('webglcontextlost', resolve, { once: true }));
    lose.loseContext();
    await lost;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
    lose.restoreContext();
    await restored;
    const result = await compareScreenshot('viewer3d/scene-context-restored', await el.screenshot(), { expectedDataUrl: before, tolerance: 0.001 });
    assert(result.ok, result.message ?? '');
  });

  it('needs no web-ifc: a scene loads in a viewer whose IFC engine cannot start', async () => {
    setWasmUrl('/no-such-web-ifc.wasm');
    try {
      el = await createViewer(400, 300);
      await el.loadModel(sceneOf(MODELS.house), { modelId: 'house' });
      assert((await el.each()).length > 20, 'the house is in');
      const error = await el.loadModel(MODELS.cabin, { modelId: 'cabin' }).then(() => null, (e) => e);
      assert(error, 'while its IFC does not load');
    } finally {
      setWasmUrl(null);
    }
  });
});

describe('bad scenes', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  const cases: [string, (bytes: Uint8Array) => Uint8Array, RegExp][] = [
    ['cut short', (b) => b.slice(0, Math.floor(b.length * 0.6)), /truncated/],
    ['of an unknown version', (b) => {
      const copy = b.slice();
      new DataView(copy.buffer).setUint32(8, 99, true);
      return copy;
    }, /version 99 is not supported/],
    ['with one bit of its geometry flipped', (b) => {
      const copy = b.slice();
      copy[b.length >> 1] ^= 0x10;
      return copy;
    }, /damaged: the checksum of its record at byte \d+ does not match/],
  ];
  for (const [what, change, message] of cases) {
    it(`a scene ${what} gives viewer.error of type scene, and leaves the models loaded before as they were`, async () => {
      el = await createViewer(400, 300);
      await el.loadModel(MODELS.cabin, { modelId: 'cabin' });
      const before = await el.each();
      const errors = record<{ type: string; message: string }>(el, 'viewer.error');
      const error = await el.loadModel(await changedScene(sceneOf(MODELS.house), change), { modelId: 'bad' }).then(() => null, (e) => e);
      assertEqual(error?.type, 'scene', `${error?.message}`);
      assert(message.test(error.message), error.message);
      assertEqual(errors.length, 1, 'one viewer.error');
      assertDeepEqual((await el.modelInfo()).map((m) => m.modelId), ['cabin'], 'nothing of the bad scene stays');
      assertDeepEqual(await el.each(), before, 'the cabin is as it was');
      await el.select(before.slice(0, 2));
      assertEqual((await el.eachSelected()).length, 2, 'and usable');
    });
  }

  it('a manifest whose scene 404s loads its IFC instead, and says so', async () => {
    el = await createViewer(400, 300);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      const url = manifest([
        { type: 'application/vnd.platform.scene', url: '/scenes/samples/no-such-building.scene' },
        { type: 'application/x-step', url: MODELS.cabin },
      ]);
      const [info] = await el.loadUrl(url);
      assertEqual(info.modelId, 'm');
      assert((await el.each()).length > 5, 'the cabin is in, from its IFC');
    } finally {
      console.warn = warn;
    }
    assertEqual(warnings.length, 1, `one warning: ${warnings}`);
    assert(/ifc format instead.*404/.test(warnings[0]), warnings[0]);
  });
});
