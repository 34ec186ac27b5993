import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelAt } from './support/viewer';
import { truthOf, objectIdOf } from './support/samples';
import { streamModel } from './support/ifc';
import { warmUpModel } from '../src/core/ifc/warm-up-model';
import { RANGE_STRIDE } from '../src/core/ifc/protocol';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';

// The engine warm-up (src/core/warm-up.ts) loads a made-up model while the viewer starts,
// so web-ifc's wasm and the scripts are optimised before the first real model arrives.
// It is only worth its time if its model has the geometry real models have, and it must
// leave nothing behind.

const warmedUp = (el: BimViewer3d) => (el as unknown as { core: { warmedUp: Promise<void> } }).core.warmedUp;

describe('the warm-up model', () => {
  it('streams every kind of geometry it is made of, each product with triangles, and its grid', async () => {
    const rooms = 8;
    const triangles = new Map<number, number>();
    const types = new Map<number, string>();
    const lengths = new Map<number, number>();
    const opened = await streamModel(warmUpModel(rooms).buffer as ArrayBuffer, (chunk, { typeNames }) => {
      for (let o = 0; o < chunk.expressIds.length; o++) {
        const b = chunk.boxes.subarray(o * 6, o * 6 + 6);
        lengths.set(chunk.expressIds[o], Math.max(lengths.get(chunk.expressIds[o]) ?? 0, b[3] - b[0], b[4] - b[1], b[5] - b[2]));
      }
      for (let i = 0; i < chunk.ranges.length; i += RANGE_STRIDE) {
        const object = chunk.ranges[i];
        const expressId = chunk.expressIds[object];
        types.set(expressId, typeNames[chunk.types[object]]);
        triangles.set(expressId, (triangles.get(expressId) ?? 0) + chunk.ranges[i + 2] / 3);
      }
    });
    const perType = new Map<string, number[]>();
    for (const [id, type] of types) perType.set(type, [...(perType.get(type) ?? []), triangles.get(id)!]);
    const expected = ['IfcWall', 'IfcWindow', 'IfcSlab', 'IfcColumn', 'IfcBeam', 'IfcFurnishingElement', 'IfcCovering', 'IfcBuildingElementProxy', 'IfcSpace'];
    assertDeepEqual([...perType.keys()].sort(), [...expected].sort(), 'types with geometry');
    for (const type of expected) {
      const counts = perType.get(type)!;
      assertEqual(counts.length, type === 'IfcSlab' ? 2 * rooms : rooms, `${type} products`);
      assert(counts.every((n) => n > 0), `every ${type} has triangles: ${counts}`);
    }
    // A wall is a box (12 triangles) until its opening is cut out of it.
    assert(perType.get('IfcWall')!.every((n) => n > 12), `walls with openings: ${perType.get('IfcWall')}`);
    // Beams clipped by a half space (every fourth room) are shorter than the plain ones.
    const beams = [...types].filter(([, type]) => type === 'IfcBeam').map(([id]) => lengths.get(id)!.toFixed(2));
    assertDeepEqual([...new Set(beams)].sort(), ['5.10', '5.80'], 'beam lengths');
    assertEqual(beams.filter((l) => l === '5.10').length, rooms / 4, 'clipped beams');
    assertEqual(opened.grids.length, 1, 'grids');
    assertEqual(opened.grids[0].axes.length, 4, 'grid axes');
  });
});

describe('the viewer warm-up', () => {
  let el: BimViewer3d | undefined;
  afterEach(async () => {
    await removeViewer(el);
    el = undefined;
  });

  it('leaves an empty viewer: no models, no objects, nothing drawn, the first model numbered from the start', async () => {
    el = await createViewer(320, 240);
    const background = await pixelAt(await el.screenshot(), 160, 120);
    await warmedUp(el);
    assertEqual((await el.renderInfo()).objects, 0, 'objects');
    assertDeepEqual(await el.each(), [], 'object ids');
    const shot = await el.screenshot();
    for (const [x, y] of [[160, 120], [40, 40], [280, 200], [60, 200]]) assertDeepEqual(await pixelAt(shot, x, y), background, `pixel ${x},${y}`);
    await el.loadModel(MODELS.cabin);
    const { grid, products } = await truthOf(MODELS.cabin);
    assert(grid, 'the cabin has a grid');
    const render = await el.renderInfo();
    assertEqual(render.objects, products.filter((p) => p.box).length, 'the cabin\'s objects, none of the warm-up\'s');
    assert(render.drawCalls > 0, `the cabin drawn: ${JSON.stringify(render)}`);
    // The warm-up's grid is gone with it: the only grid is the cabin's, its ids from express id 0 on.
    const grids = await el.getGrids();
    assertDeepEqual(grids.map((g) => ({ id: g.id, name: g.name, axes: g.axes.map((a) => a.id) })), [{ id: objectIdOf(grid.id), name: grid.name, axes: grid.axes.map((a) => objectIdOf(a.id)) }], 'grids');
  });

  it('gives way to a model loaded at once, which loads as it would without it', async () => {
    el = await createViewer(320, 240);
    const info = await el.loadModel(MODELS.cabin);
    await warmedUp(el);
    const cold = await el.each();
    assert(cold.length > 0, 'objects');
    await removeViewer(el);
    el = await createViewer(320, 240);
    await warmedUp(el);
    const again = await el.loadModel(MODELS.cabin);
    assertDeepEqual(again, info, 'model info');
    assertDeepEqual(await el.each(), cold, 'the same object ids in the same order');
  });

  it('settles when the viewer is disposed before it has run', async () => {
    el = await createViewer(320, 240);
    const warm = warmedUp(el);
    await removeViewer(el);
    el = undefined;
    await warm;
  });
});
