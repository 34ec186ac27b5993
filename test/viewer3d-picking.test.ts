import { sendMouse, resetMouse } from '@web/test-runner-commands';
import { assert, assertEqual } from './support/assert';
import { createViewer, removeViewer, MODELS, pixelAt } from './support/viewer';
import { elementPoint, type Point } from './support/input';
import type { BimViewer3d } from '../src/elements/bim-viewer-3d';
import type { Vec3 } from '../src/core/types';
import { streamModel } from './support/ifc';
import { RANGE_STRIDE } from '../src/core/ifc/protocol';

// Picking is a ray test on the CPU (src/core/scene/picker.ts), not a read of what the GPU
// drew: these tests hold it to the picture. What is picked at a pixel is what is drawn
// there, hidden objects and clipped parts are not picked, and the object behind is.

interface Hit {
  objectId?: string;
  intersects?: { objectId: string; point: Vec3; normal: Vec3 };
}

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const dist = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

describe('picking on Duplex: what is picked is what is drawn', () => {
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
    await el.loadUrl(MODELS.duplex);
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

describe('the triangles picking keeps', () => {
  it('are the triangles the GPU draws, from fewer positions, and the page keeps only them once drawn', async () => {
    // Straight from the worker: each piece's pick triangles must be its drawn triangles.
    let drawn = 0;
    let distinct = 0;
    let checked = 0;
    await streamModel(await (await fetch(MODELS.tekla)).arrayBuffer(), (chunk) => {
      drawn += chunk.positions.length / 3;
      distinct += chunk.pickPositions.length / 3;
      const { ranges, positions, indices, pickPositions, pickIndices } = chunk;
      for (let r = 0; r < ranges.length; r += RANGE_STRIDE) {
        const base = ranges[r + 3];
        for (let i = ranges[r + 1]; i < ranges[r + 1] + ranges[r + 2]; i++) {
          for (let k = 0; k < 3; k++) {
            const gpu = positions[indices[i] * 3 + k];
            const pick = pickPositions[(base + pickIndices[i]) * 3 + k];
            if (gpu !== pick) throw new Error(`piece at ${r / RANGE_STRIDE}, index ${i}: pick ${pick}, drawn ${gpu}`);
          }
          checked++;
        }
      }
      assert(pickIndices instanceof Uint16Array, 'pieces of a few thousand positions get 16-bit pick indices');
    });
    assert(checked > 500_000, `every index checked (${checked})`);
    assert(distinct < drawn * 0.6, `web-ifc repeats corners per face: ${distinct} distinct of ${drawn} drawn positions`);

    // In the viewer: once drawn, the batches' GPU arrays have left the page, and picking still hits.
    const el = await createViewer(320, 240);
    try {
      await el.loadUrl(MODELS.tekla);
      await frames();
      const core = (el as unknown as { core: { models: { batches: { geometry: { attributes: Record<string, { array: ArrayLike<number> }>; index: { array: ArrayLike<number> } } }[] }[]; pickAt(x: number, y: number): { index: number } | null } }).core;
      const batches = core.models[0].batches;
      assert(batches.length > 0, 'Tekla has batches');
      for (const batch of batches) {
        assertEqual(batch.geometry.attributes.position.array.length, 0, 'drawn positions are released');
        assertEqual(batch.geometry.index.array.length, 0, 'drawn indices are released');
      }
      assert(core.pickAt(160, 120) !== null, 'the centre of the view picks an object');
    } finally {
      await removeViewer(el);
    }
  });
});
