// Space footprints from the plan worker against the floor areas of the generated
// buildings: the truth's areas (computed as the files were written) and what the files
// themselves state (Qto_SpaceBaseQuantities GrossFloorArea, read here with web-ifc on the
// page, independently of the plan code). Real exporters' quantities:
// test/real-models/plan-areas.test.ts.
import { type IfcAPI, IFCRELDEFINESBYPROPERTIES } from 'web-ifc';
import { PlanClient } from '../src/core/plan/plan-client';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual } from './support/assert';
import { SAMPLES, truthOf } from './support/samples';
import { startWebIfc, val } from './support/web-ifc';

let api: IfcAPI;
let client: PlanClient;

/**
 * How exactly areas can match: web-ifc hands meshes over in float32 (in each object's
 * frame), so a 6 x 5 m room's corners are off by up to ~2e-7 m and its area by ~2e-6 m².
 */
const AREA = 1e-5;

/** Space express id -> GrossFloorArea of its quantity set (the samples' area unit is m²). */
function grossFloorAreas(bytes: ArrayBuffer): Map<number, number> {
  const modelID = api.OpenModel(new Uint8Array(bytes.slice(0)), { COORDINATE_TO_ORIGIN: false });
  const out = new Map<number, number>();
  try {
    const rels = api.GetLineIDsWithType(modelID, IFCRELDEFINESBYPROPERTIES);
    for (let i = 0; i < rels.size(); i++) {
      const rel = api.GetLine(modelID, rels.get(i), false);
      const definition = api.GetLine(modelID, val(rel.RelatingPropertyDefinition), true);
      for (const q of definition.Quantities ?? []) {
        if (val(q.Name) !== 'GrossFloorArea') continue;
        for (const object of rel.RelatedObjects ?? []) out.set(val(object), Number(val(q.AreaValue)));
      }
    }
  } finally {
    api.CloseModel(modelID);
  }
  return out;
}

describe('space areas: plan footprints against the generated buildings\' floor areas', function () {
  before(async () => {
    api = await startWebIfc();
    client = new PlanClient();
  });
  after(() => client.dispose());

  // Houses have rooms of each shape: extruded, extruded around the stair opening, a Brep; the cabin's one room is extruded.
  const HOUSE = ['brep', 'extrusion', 'extrusion with hole'];
  const cases: Array<[string, string, string[]]> = [
    ['cabin', SAMPLES.cabin, ['extrusion']],
    ['house', SAMPLES.house, HOUSE],
    ['house-ifc2x3 (millimetres)', SAMPLES.houseIfc2x3, HOUSE],
    ['house-ifc4x3', SAMPLES.houseIfc4x3, HOUSE],
    ['house-georeferenced', SAMPLES.houseGeoreferenced, HOUSE],
  ];
  for (const [name, url, shapes] of cases) {
    it(`${name}: every space's footprint is its floor area (${shapes.join(', ')})`, async () => {
      const [bytes, truth] = await Promise.all([fetch(url).then((r) => r.arrayBuffer()), truthOf(url)]);
      const stated = grossFloorAreas(bytes);
      const plan = await client.plan(bytes, '0');
      assertEqual(plan.spaces.length, truth.spaces.length, 'spaces');
      const rows: string[] = [];
      for (const expected of truth.spaces) {
        const space = plan.spaces.find((s) => s.expressId === expected.id);
        assert(space, `${expected.name}: in the plan`);
        const quantity = stated.get(expected.id);
        assert(quantity !== undefined, `${expected.name}: the file states its GrossFloorArea`);
        assertAlmostEqual(quantity, expected.area, 1e-9, `${expected.name}: the file's GrossFloorArea is the truth's`);
        rows.push(`${expected.name} ${expected.longName} (${expected.shape}): plan ${space.area.toFixed(6)} m², truth ${expected.area.toFixed(6)} m²`);
        assertAlmostEqual(space.area, expected.area, AREA, `${expected.name} (${expected.shape}): plan ${space.area} m² vs ${expected.area} m²`);
      }
      console.log(`${name}:\n  ${rows.join('\n  ')}`);
      // Each storey's spaces add up to its rooms less the stair opening.
      for (const storey of plan.storeys) {
        const planned = storey.spaces.reduce((sum, i) => sum + plan.spaces[i].area, 0);
        const expected = truth.spaces.filter((s) => s.storey === storey.expressId).reduce((sum, s) => sum + s.area, 0);
        assertAlmostEqual(planned, expected, AREA * storey.spaces.length, `${storey.name}: total floor area`);
      }
      assertDeepEqual([...new Set(truth.spaces.map((s) => s.shape))].sort(), shapes, 'space shapes checked');
    });
  }
});
