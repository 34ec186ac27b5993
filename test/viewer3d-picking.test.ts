import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelAt } from './support/viewer';
import { truthOf } from './support/samples';
import { elementPoint, type Point } from './support/input';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3 } from '../src/core/types';
import { streamModel } from './support/ifc';
import { RANGE_STRIDE } from '../src/core/ifc/protocol';
import { IfcAPI, IFCSPACE, LogLevel, type FlatMesh } from 'web-ifc';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';

// Picking is a ray test on the CPU (src/core/scene/picker.ts), not a read of what the GPU
// drew: these tests hold it to the picture. What is picked at a pixel is what is drawn
// there, hidden objects and clipped parts are not picked, and the object behind is.

interface Hit {
  objectId?: string;
  intersects?: { objectId: string; point: Vec3; normal: Vec3 };
}

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const dist = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('picking on the house: what is picked is what is drawn', () => {
  let el: BimViewer3d;

  /** A real left click at `at`; the viewer.click detail (cancelled: nothing gets selected). */
  async function pick(at: Point): Promise<Hit> {
    const seen: Hit[] = [];
    const listener = (e: Event) => {
      seen.push((e as CustomEvent<Hit>).detail);
      e.preventDefault();
    };
    el.addEventListener('viewer.click', listener);
    try {
      await sendMouse({ type: 'click', position: at, button: 'left' });
      for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      el.removeEventListener('viewer.click', listener);
    }
    assertEqual(seen.length, 1, `viewer.click events at ${at}`);
    return seen[0];
  }

  /** Is the pixel at `at` (CSS pixels in the viewer) the selection colour, magenta, after lighting? */
  async function magentaAt(at: Point): Promise<boolean> {
    const shot = await el.screenshot();
    const scale = window.devicePixelRatio || 1;
    const [r, g, b] = await pixelAt(shot, at[0] * scale, at[1] * scale);
    return r > 100 && b > 100 && g < 60;
  }

  before(async () => {
    el = await createViewer(480, 360, { 'selected-color': '#ff00ff' });
    await el.loadUrl(MODELS.house);
    // Grid tags are drawn over the model and are not objects: hide the grid with them.
    for (const grid of await el.getGrids()) for (const axis of grid.axes) await el.setGridAxisState(axis.id, { visible: false });
    await frames();
  });
  after(async () => {
    await resetMouse();
    await removeViewer(el);
  });
  beforeEach(async () => {
    await el.viewpoint('home');
    await el.deselectAll();
    await el.clippingPlanes([]);
  });

  it('the object picked at a pixel is the one drawn there: selecting it colours that pixel', async () => {
    let hits = 0;
    const wrong: string[] = [];
    for (const fy of [0.35, 0.5, 0.65]) {
      for (const fx of [0.3, 0.4, 0.5, 0.6, 0.7]) {
        const at = elementPoint(el, fx, fy);
        const hit = await pick(at);
        if (!hit.objectId) {
          assert(!(await magentaAt(at)), 'nothing is selected');
          continue;
        }
        hits++;
        await el.select(hit.objectId);
        if (!(await magentaAt(at))) wrong.push(`${hit.objectId} at ${at}`);
        await el.deselectAll();
      }
    }
    assert(hits >= 10, `only ${hits} of 15 points hit the building in the home view`);
    // A pixel on the very edge of an object may blend with its neighbour (antialiasing).
    assert(wrong.length <= 1, `picked objects not drawn at their pixel: ${wrong.join(', ')}`);
  });

  it('a hidden object is not picked: the object behind it is', async () => {
    const at = elementPoint(el, 0.5, 0.5);
    const front = await pick(at);
    assert(front.objectId && front.intersects, 'the canvas centre hits the building');
    const camera = (await el.viewpoint()).location;
    await el.hide(front.objectId);
    const behind = await pick(at);
    assert(behind.objectId !== front.objectId, `the hidden object ${front.objectId} was picked`);
    if (behind.intersects) {
      assert(dist(behind.intersects.point, camera) > dist(front.intersects.point, camera), 'the next hit is behind the hidden object');
    }
    await el.show(front.objectId);
    assertEqual((await pick(at)).objectId, front.objectId, 'shown again, it is picked again');
  });

  it('parts cut away by a clipping plane are not picked', async () => {
    const at = elementPoint(el, 0.5, 0.5);
    const front = await pick(at);
    assert(front.intersects, 'the canvas centre hits the building');
    const view = (await el.viewpoint()).direction;
    // A plane 5 cm behind the hit, facing the camera: it cuts away everything up to there.
    const p = front.intersects.point;
    const location = { x: p.x + view.x * 0.05, y: p.y + view.y * 0.05, z: p.z + view.z * 0.05 };
    const direction = { x: -view.x, y: -view.y, z: -view.z };
    await el.clippingPlanes([{ location, direction }]);
    const cut = await pick(at);
    if (cut.intersects) {
      const q = cut.intersects.point;
      const side = (q.x - location.x) * direction.x + (q.y - location.y) * direction.y + (q.z - location.z) * direction.z;
      assert(side <= 1e-6, `the hit ${JSON.stringify(q)} is on the cut-away side of the plane`);
    }
    await el.clippingPlanes([]);
    assertEqual((await pick(at)).objectId, front.objectId, 'without the plane the first object is picked again');
  });
});

describe('the triangles drawn and picked', () => {
  // The house has walls cut by openings, mapped items and a faceted Brep space; office-2k has 2,000 objects.
  for (const [name, url] of [['house', MODELS.house], ['office-2k', MODELS.office2k]] as const) {
    it(`are web-ifc's triangles, from a third of its vertices (${name})`, async () => {
      const bytes = await (await fetch(url)).arrayBuffer();
      // Per object: triangles and their area, from the chunks the worker sends...
      const ours = new Map<number, { triangles: number; area: number }>();
      let positions = 0;
      await streamModel(bytes.slice(0), (chunk) => {
        const { ranges, positions: p, indices } = chunk;
        positions += p.length / 3;
        assert(indices instanceof Uint16Array, 'chunks of pieces of a few thousand positions have 16-bit indices');
        for (let r = 0; r < ranges.length; r += RANGE_STRIDE) {
          const sum = ours.get(chunk.expressIds[ranges[r]]) ?? { triangles: 0, area: 0 };
          for (let i = ranges[r + 1]; i < ranges[r + 1] + ranges[r + 2]; i += 3) {
            const [a, b, c] = [0, 1, 2].map((k) => Array.from(p.subarray(indices[i + k] * 3, indices[i + k] * 3 + 3)));
            sum.triangles++;
            sum.area += area(a, b, c);
          }
          ours.set(chunk.expressIds[ranges[r]], sum);
        }
      });
      // ...and from web-ifc on this page, placed by each geometry's own matrix.
      const api = new IfcAPI();
      await api.Init((path: string) => (path.endsWith('.wasm') ? wasmUrl : path), true);
      api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
      const modelID = api.OpenModel(new Uint8Array(bytes));
      let vertices = 0;
      const compared: number[] = [];
      const take = (mesh: FlatMesh) => {
        let triangles = 0;
        let sum = 0;
        for (let g = 0; g < mesh.geometries.size(); g++) {
          const placed = mesh.geometries.get(g);
          const geometry = api.GetGeometry(modelID, placed.geometryExpressID);
          const v = api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
          const t = api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize());
          const m = placed.flatTransformation;
          const at = (i: number) => [0, 1, 2].map((k) => m[k] * v[i * 6] + m[4 + k] * v[i * 6 + 1] + m[8 + k] * v[i * 6 + 2]);
          for (let i = 0; i < t.length; i += 3) sum += area(at(t[i]), at(t[i + 1]), at(t[i + 2]));
          triangles += t.length / 3;
          vertices += v.length / 6;
          geometry.delete();
        }
        if (triangles === 0) return; // an empty shape draws nothing
        const mine = ours.get(mesh.expressID);
        if (!mine) throw new Error(`#${mesh.expressID} has no triangles in the chunks`);
        assertEqual(mine.triangles, triangles, `#${mesh.expressID}: triangles`);
        assertAlmostEqual(mine.area, sum, 1e-3 * sum + 1e-6, `#${mesh.expressID}: area`);
        compared.push(mesh.expressID);
      };
      // web-ifc leaves spaces out unless asked for them; the viewer draws them (hidden at first).
      api.StreamAllMeshes(modelID, take);
      api.StreamAllMeshesWithTypes(modelID, [IFCSPACE], take);
      api.CloseModel(modelID);
      const truth = await truthOf(url);
      const drawn = truth.products.filter((p) => p.box).map((p) => p.id);
      assertDeepEqual(compared.sort((a, b) => a - b), drawn.sort((a, b) => a - b), 'objects compared: every product with geometry');
      assertEqual(ours.size, drawn.length, 'objects in the chunks');
      console.log(`${name}: ${positions} positions drawn for web-ifc's ${vertices} vertices`);
      // web-ifc repeats a corner per face; each corner of an extruded solid is on three faces.
      assert(positions <= vertices / 3, `web-ifc repeats corners per face: ${positions} positions drawn for its ${vertices} vertices`);
    });
  }

  it('the page keeps positions and indices once drawn, and picks on them', async () => {
    // In the viewer: once drawn, colours and object numbers have left the page, positions and indices stay, and picking hits.
    const el = await createViewer(320, 240);
    try {
      await el.loadUrl(MODELS.office2k);
      // Hidden spaces are not drawn, so not uploaded yet: show them.
      await el.showAll();
      await frames();
      const core = (el as unknown as { core: { models: { batches: { geometry: { attributes: Record<string, { array: ArrayLike<number> }>; index: { array: ArrayLike<number> } } }[] }[]; pickAt(x: number, y: number): { index: number } | null } }).core;
      const batches = core.models[0].batches;
      assert(batches.length > 0, 'office-2k has batches');
      for (const { geometry } of batches) {
        assertEqual(geometry.attributes.rgba.array.length, 0, 'colours are released');
        assertEqual(geometry.attributes.objectIndex.array.length, 0, 'object numbers are released');
        assert(geometry.attributes.position.array.length > 0 && geometry.index.array.length > 0, 'positions and indices stay');
      }
      assert(core.pickAt(160, 120) !== null, 'the centre of the view picks an object');
    } finally {
      await removeViewer(el);
    }
  });
});

function area(a: number[], b: number[], c: number[]): number {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  return Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]) / 2;
}
