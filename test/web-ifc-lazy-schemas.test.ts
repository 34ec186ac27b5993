// The web-ifc our workers get (scripts/web-ifc-lazy-schemas.mjs: each schema's tables and
// classes in a module of its own, loaded with loadSchemaTables) against web-ifc as
// published, on the same page: every line of a model of each schema reads the same once
// its schema is loaded, reading before throws, and a stream plan, the grids and the units
// (read before a model's first frame) need no schema.
import * as published from 'web-ifc';
import * as lazy from 'virtual:web-ifc-lazy-schemas';
import { StreamPlan } from '../src/core/ifc/stream-plan';
import { readGrids } from '../src/core/ifc/grids';
import { readUnits } from '../src/core/ifc/units';
import { assert, assertDeepEqual, assertEqual } from './support/assert';
import { SAMPLES, truthOf } from './support/samples';
import { elementsInStreamOrder, startWebIfc } from './support/web-ifc';
import { SCHEMAS, builtSchemas as built } from './support/web-ifc-lazy';

type Api = published.IfcAPI;

/** Every line as JSON (an unreadable line as its error), the entity list and the project flattened. */
function read(api: Api, modelID: number): string[] {
  const out: string[] = [];
  const ids = api.GetAllLines(modelID);
  for (let i = 0; i < ids.size(); i++) {
    try {
      out.push(JSON.stringify(api.GetLine(modelID, ids.get(i), false, true)));
    } catch (e) {
      out.push(`error: ${(e as Error).message}`);
    }
  }
  out.push(JSON.stringify(api.GetIfcEntityList(modelID)));
  out.push(JSON.stringify(api.GetLine(modelID, api.GetLineIDsWithType(modelID, published.IFCPROJECT).get(0), true)));
  return out;
}

describe('web-ifc with each schema loaded apart (the workers\' copy)', function () {
  this.timeout(120_000);
  let reference: Api;
  let ours: Api;

  before(async () => {
    assertEqual(built(), '', 'no schema built before the first read');
    assertEqual(lazy.IFC4, undefined, 'the IFC4 namespace before the first read');
    [reference, ours] = await Promise.all([startWebIfc(), startWebIfc(lazy.IfcAPI)]);
    assertEqual(built(), '', 'no schema built by Init');
  });

  it('a stream plan, the grids and the units (what the viewer reads before its first frame) build no schema, and the plan visits what GetIfcEntityList lists', async () => {
    const bytes = new Uint8Array(await (await fetch(SAMPLES.houseIfc2x3)).arrayBuffer());
    const a = reference.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
    const b = ours.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
    const plan = new StreamPlan(ours, b, null);
    const grids = readGrids(ours, b, '0');
    assertDeepEqual(readUnits(ours, b), { length: 0.001, angle: 0.017453293 }, 'the IFC2X3 house in millimetres and degrees (its IfcMeasureWithUnit)');
    assertEqual(built(), '', 'schemas built by the plan, the grids and the units of an IFC2X3 model');
    assertEqual(grids.length, 1, 'the house has a grid');
    assertDeepEqual(grids, readGrids(reference, a, '0'), 'the grids as web-ifc as published reads them');
    const expected = elementsInStreamOrder(reference, a);
    reference.CloseModel(a);
    ours.CloseModel(b);
    // web-ifc's IsIfcElement takes in every product type the house has (site, storeys and grid too) but openings.
    const truth = await truthOf(SAMPLES.houseIfc2x3);
    assertEqual(expected.length, truth.products.filter((p) => p.type !== 'IfcOpeningElement').length, 'objects');
    assertEqual([...plan.ids].join(), expected.join(), 'the plan\'s objects, in order');
  });

  const cases: Array<[string, string, keyof typeof SCHEMAS]> = [
    ['house', SAMPLES.house, 'IFC4'],
    ['house-ifc2x3', SAMPLES.houseIfc2x3, 'IFC2X3'],
    ['house-ifc4x3', SAMPLES.houseIfc4x3, 'IFC4X3'],
  ];
  const expected: string[] = [];
  for (const [name, url, schema] of cases) {
    it(`${name} (${schema}): every line reads as with web-ifc as published; ${schema} is built then`, async () => {
      const text = await (await fetch(url)).text();
      const truth = await truthOf(url);
      assertEqual(truth.schema, schema, `${name} is written in ${schema}`);
      assert(text.includes(`FILE_SCHEMA(('${schema}'))`), `${name} is ${schema}`);
      const bytes = new TextEncoder().encode(text);
      const a = reference.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
      const b = ours.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
      assertEqual(built(), [...expected].sort().join(), 'opening builds no schema');
      let before = '';
      try {
        ours.GetLine(b, ours.GetLineIDsWithType(b, published.IFCPROJECT).get(0), true);
      } catch (e) {
        before = (e as Error).message;
      }
      assert(before.includes(`schema ${SCHEMAS[schema]} are not loaded`), `reading before the schema is loaded: ${before || 'no error'}`);
      await lazy.loadSchemaTables(SCHEMAS[schema]);
      const want = read(reference, a);
      const got = read(ours, b);
      reference.CloseModel(a);
      ours.CloseModel(b);
      // Every line of the file, then the entity list and the project.
      assertEqual(want.length, truth.lines + 2, `${name}: lines read`);
      const unreadable = want.filter((line) => line.startsWith('error'));
      assertEqual(unreadable.length, 0, `${name}: lines web-ifc cannot read: ${unreadable.slice(0, 3)}`);
      assertEqual(got.length, want.length, 'line count');
      const differ = got.findIndex((line, i) => line !== want[i]);
      assertEqual(differ, -1, `first differing line: ${got[differ]?.slice(0, 200)} against ${want[differ]?.slice(0, 200)}`);
      expected.push(schema);
      assertEqual(built(), [...expected].sort().join(), 'schemas built');
      assert(lazy[schema] !== undefined, `the ${schema} namespace is there once built`);
      for (const table of ['InheritanceDef', 'InversePropertyDef'] as const) {
        assertEqual(JSON.stringify(lazy[table][SCHEMAS[schema]]), JSON.stringify(published[table][SCHEMAS[schema]]), table);
      }
    });
  }
});
