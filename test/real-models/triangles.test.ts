// web-ifc's triangles against the chunks the viewer draws and picks on (see
// test/viewer3d-picking.test.ts), on a real export: Tekla's steel profiles, with a
// quarter as many positions as web-ifc's vertices.
import { assert, assertAlmostEqual, assertEqual } from '../support/assert';
import { createViewer, removeViewer } from '../support/viewer';
import { REAL_MODELS } from '../support/real-models';
import { assertDrawnTrianglesKept, chunkTriangles, meshTriangles } from '../support/triangles';
import { startWebIfc } from '../support/web-ifc';

const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('the triangles drawn and picked, on a real model', () => {
  it('are web-ifc\'s triangles, from a quarter of its vertices, and the page keeps them once drawn', async () => {
    const bytes = await (await fetch(REAL_MODELS.tekla)).arrayBuffer();
    // Per object: triangles and their area, from the chunks the worker sends...
    const { objects: ours, positions } = await chunkTriangles(bytes);
    // ...and from web-ifc on this page, placed by each geometry's own matrix.
    const api = await startWebIfc();
    const modelID = api.OpenModel(new Uint8Array(bytes));
    let vertices = 0;
    let compared = 0;
    api.StreamAllMeshes(modelID, (mesh) => {
      const { triangles, area: sum, vertices: read } = meshTriangles(api, modelID, mesh);
      vertices += read;
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
      assertDrawnTrianglesKept(el, 'Tekla');
    } finally {
      await removeViewer(el);
    }
  });
});
