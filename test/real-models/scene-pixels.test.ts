// The scene format on real files written by others: their first picture drawn from the
// scene the demo backend converts (/scenes/models/<name>.scene) and from the IFC match, and
// so do the objects picked in it (PCERT's roof and the zone drawn around it share a face).
// example_project_location and Mini_Project_Tekla place the same geometries many times,
// which their scenes hold once (src/core/formats/repeats.ts).
import { assert } from '../support/assert';
import { createViewer, removeViewer } from '../support/viewer';
import { compareScreenshot } from '../support/screenshot';
import { REAL_MODELS } from '../support/real-models';
import { sceneOf } from '../support/samples';
import type { BimViewer3d } from '../../src/elements/bim-viewer-3d';

/** The engine's picking (private in TypeScript): what a click reports. */
type Picking = { pickAt(x: number, y: number): unknown; describeHit(hit: unknown): [string | undefined, unknown] };

/** The object picked at every point of a 24 x 18 grid over the 480 x 360 viewer (null where none). */
function picksOf(el: BimViewer3d): (string | null)[] {
  const core = (el as unknown as { core: Picking }).core;
  const picks: (string | null)[] = [];
  for (let y = 10; y < 360; y += 20) for (let x = 10; x < 480; x += 20) picks.push(core.describeHit(core.pickAt(x, y))[0] ?? null);
  return picks;
}

describe('scenes of real models', () => {
  let el: BimViewer3d;
  afterEach(() => removeViewer(el));

  for (const [name, url] of Object.entries(REAL_MODELS)) {
    it(`draws the same first picture from the scene as from the IFC, and picks the same objects in it (${name})`, async () => {
      el = await createViewer(480, 360);
      await el.loadModel(url, { modelId: 'm' });
      const ifc = { shot: await el.screenshot(), render: await el.renderInfo(), picks: picksOf(el) };
      await el.unloadModel('m');
      await el.loadModel(sceneOf(url), { modelId: 'm' });
      const render = await el.renderInfo();
      assert(render.triangles === ifc.render.triangles && render.objects === ifc.render.objects, `${render.triangles} triangles of ${render.objects} objects from the scene, ${ifc.render.triangles} of ${ifc.render.objects} from the IFC`);
      const result = await compareScreenshot(`viewer3d/scene-vs-ifc-${name}`, await el.screenshot(), { expectedDataUrl: ifc.shot, tolerance: 0.002 });
      assert(result.ok, result.message ?? '');
      const picks = picksOf(el);
      const differing = picks.flatMap((id, i) => (id === ifc.picks[i] ? [] : [`point ${i}: ${id} from the scene, ${ifc.picks[i]} from the IFC`]));
      assert(ifc.picks.some((id) => id !== null), 'the grid hits the model');
      assert(differing.length === 0, `${differing.length} of ${picks.length} picks differ: ${differing.slice(0, 3).join('; ')}`);
    });
  }
});
