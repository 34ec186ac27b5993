// The scene format on real files written by others: their first picture drawn from the
// scene the demo backend converts (/scenes/models/<name>.scene) and from the IFC match.
// example_project_location and Mini_Project_Tekla place the same geometries many times,
// which their scenes hold once (src/core/formats/repeats.ts).
import { assert } from '../support/assert';
import { createViewer, removeViewer } from '../support/viewer';
import { compareScreenshot } from '../support/screenshot';
import { REAL_MODELS } from '../support/real-models';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';

const sceneOf = (ifcUrl: string) => ifcUrl.replace(/^\/models\/(.*)\.ifc$/, '/scenes/models/$1.scene');

describe('scenes of real models', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  for (const [name, url] of Object.entries(REAL_MODELS)) {
    it(`draws the same first picture from the scene as from the IFC (${name})`, async () => {
      el = await createViewer(480, 360);
      await el.loadModel(url, { modelId: 'm' });
      const ifc = { shot: await el.screenshot(), render: await el.renderInfo() };
      await el.unloadModel('m');
      await el.loadModel(sceneOf(url), { modelId: 'm' });
      const render = await el.renderInfo();
      assert(render.triangles === ifc.render.triangles && render.objects === ifc.render.objects, `${render.triangles} triangles of ${render.objects} objects from the scene, ${ifc.render.triangles} of ${ifc.render.objects} from the IFC`);
      const result = await compareScreenshot(`viewer3d/scene-vs-ifc-${name}`, await el.screenshot(), { expectedDataUrl: ifc.shot, tolerance: 0.002 });
      assert(result.ok, result.message ?? '');
    });
  }
});
