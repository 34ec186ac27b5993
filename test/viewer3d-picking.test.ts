import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelAt } from './support/viewer';
import { truthOf } from './support/samples';
import { elementPoint, type Point } from './support/input';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3 } from '../src/core/types';
import { assertDrawnTrianglesKept, chunkTriangles, meshTriangles } from './support/triangles';
import { startWebIfc } from './support/web-ifc';
import { IFCSPACE, type FlatMesh } from 'web-ifc';

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
      const { objects: ours, positions } = await chunkTriangles(bytes);
      // ...and from web-ifc on this page, placed by each geometry's own matrix.
      const api = await startWebIfc();
      const modelID = api.OpenModel(new Uint8Array(bytes));
      let vertices = 0;
      const compared: number[] = [];
      const take = (mesh: FlatMesh) => {
        const { triangles, area: sum, vertices: read } = meshTriangles(api, modelID, mesh);
        vertices += read;
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
      assertDrawnTrianglesKept(el, 'office-2k');
    } finally {
      await removeViewer(el);
    }
  });
});
