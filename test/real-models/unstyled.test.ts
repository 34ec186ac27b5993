// Which objects the IFC gives no colour (drawn in the viewer's defaultColor), on real
// exports: web-ifc draws those white, exactly like an explicit white style, so the
// worker's UnstyledProducts must find every style web-ifc itself finds.
import { assert } from '../support/assert';
import { REAL_MODELS } from '../support/real-models';
import { startWebIfc } from '../support/web-ifc';
import { UnstyledProducts } from '../../src/core/ifc/unstyled';

describe('objects without a colour from the IFC, on real models', () => {
  it('every object web-ifc colours counts as styled; white ones without a style are unstyled', async () => {
    const api = await startWebIfc();
    const unstyledPieces: Record<string, number> = {};
    for (const [name, url] of Object.entries(REAL_MODELS)) {
      const modelID = api.OpenModel(new Uint8Array(await (await fetch(url)).arrayBuffer()));
      const products = new UnstyledProducts(api, modelID);
      let unstyled = 0;
      api.StreamAllMeshes(modelID, (mesh) => {
        for (let i = 0; i < mesh.geometries.size(); i++) {
          const { color } = mesh.geometries.get(i);
          const white = color.x === 1 && color.y === 1 && color.z === 1 && color.w === 1;
          if (!white) assert(products.styled(mesh.expressID), `${name} #${mesh.expressID}: web-ifc colours it, so the IFC styles it`);
          if (products.unstyled(mesh.expressID, color)) unstyled++;
        }
      });
      api.CloseModel(modelID);
      unstyledPieces[name] = unstyled;
    }
    // Counted with web-ifc 0.0.78: Tekla styles everything, Duplex leaves walls, slabs and more unstyled.
    assert(unstyledPieces.tekla === 0, `Tekla: ${unstyledPieces.tekla} unstyled`);
    assert(unstyledPieces.duplex > 300, `Duplex: ${unstyledPieces.duplex} unstyled`);
    assert(unstyledPieces.grid === 35, `grid-placement (no styles at all): ${unstyledPieces.grid} of 35 unstyled`);
    assert(unstyledPieces.fzk === 0, `FZK-Haus: its 21 white pieces are styled white, got ${unstyledPieces.fzk} unstyled`);
  });
});
