// web-ifc's triangles against the chunks the viewer draws and picks on (see
// test/viewer3d-picking.test.ts), on a real export: Tekla's steel profiles, with a
// quarter as many positions as web-ifc's vertices.
import { assert, assertAlmostEqual, assertEqual } from '../support/assert';
import { createViewer, removeViewer } from '../support/viewer';
import { REAL_MODELS } from '../support/real-models';
import { streamModel } from '../support/ifc';
import { RANGE_STRIDE } from '../../src/core/ifc/protocol';
import { IfcAPI, LogLevel } from 'web-ifc';
import wasmUrl from 'web-ifc/web-ifc.wasm?url';

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('the triangles drawn and picked, on a real model', () => {
  it('are web-ifc\'s triangles, from a quarter of its vertices, and the page keeps them once drawn', async () => {
    const bytes = await (await fetch(REAL_MODELS.tekla)).arrayBuffer();
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
    let compared = 0;
    api.StreamAllMeshes(modelID, (mesh) => {
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
      const mine = ours.get(mesh.expressID);
      if (!mine) throw new Error(`#${mesh.expressID} has no triangles in the chunks`);
      assertEqual(mine.triangles, triangles, `#${mesh.expressID}: triangles`);
      assertAlmostEqual(mine.area, sum, 1e-3 * sum + 1e-6, `#${mesh.expressID}: area`);
      compared++;
    });
    api.CloseModel(modelID);
    assert(compared > 500, `objects compared (${compared})`);
    assert(positions < vertices * 0.3, `web-ifc repeats corners per face: ${positions} positions drawn for its ${vertices} vertices`);

    // In the viewer: once drawn, colours and object numbers have left the page, positions and indices stay, and picking hits.
    const el = await createViewer(320, 240);
    try {
      await el.loadUrl(REAL_MODELS.tekla);
      await frames();
      const core = (el as unknown as { core: { models: { batches: { geometry: { attributes: Record<string, { array: ArrayLike<number> }>; index: { array: ArrayLike<number> } } }[] }[]; pickAt(x: number, y: number): { index: number } | null } }).core;
      const batches = core.models[0].batches;
      assert(batches.length > 0, 'Tekla has batches');
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
