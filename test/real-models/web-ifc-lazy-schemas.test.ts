// The workers' web-ifc (each schema's tables loaded apart, see test/web-ifc-lazy-schemas.test.ts)
// on real models, without grids and with: what the viewer reads before its first frame, the
// stream plan and the grids, needs no schema.
import * as published from 'web-ifc';
import * as lazy from 'virtual:web-ifc-lazy-schemas';
import { readGrids } from '../../src/core/ifc/grids';
import { StreamPlan } from '../../src/core/ifc/stream-plan';
import { assert, assertDeepEqual, assertEqual } from '../support/assert';
import { REAL_MODELS } from '../support/real-models';
import { elementsInStreamOrder, startWebIfc } from '../support/web-ifc';
import { builtSchemas as built } from '../support/web-ifc-lazy';

type Api = published.IfcAPI;

describe('web-ifc with each schema loaded apart, on a real model', function () {
  this.timeout(120_000);
  let reference: Api;
  let ours: Api;

  before(async () => {
    assertEqual(built(), '', 'no schema built before the first read');
    [reference, ours] = await Promise.all([startWebIfc(), startWebIfc(lazy.IfcAPI)]);
    assertEqual(built(), '', 'no schema built by Init');
  });

  it('a stream plan and the grids of a model without grids (what the viewer reads before its first frame) build no schema, and visits what GetIfcEntityList lists', async () => {
    const bytes = new Uint8Array(await (await fetch(REAL_MODELS.duplex)).arrayBuffer());
    const a = reference.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
    const b = ours.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
    const plan = new StreamPlan(ours, b, null);
    assertEqual(readGrids(ours, b, '0').length, 0, 'Duplex has no grids');
    assertEqual(built(), '', 'schemas built by the plan and the grids of an IFC2X3 model');
    const expected = elementsInStreamOrder(reference, a);
    reference.CloseModel(a);
    ours.CloseModel(b);
    assert(expected.length > 200, `objects: ${expected.length}`);
    assertEqual([...plan.ids].join(), expected.join(), 'the plan\'s objects, in order');
  });

  it('the grids of a model with 7 (Mini_Project_Tekla) build no schema, and are those web-ifc as published reads', async () => {
    const bytes = new Uint8Array(await (await fetch(REAL_MODELS.tekla)).arrayBuffer());
    const a = reference.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
    const b = ours.OpenModel(bytes.slice(), { COORDINATE_TO_ORIGIN: false });
    const grids = readGrids(ours, b, '0');
    assertEqual(built(), '', 'schemas built by the grids of an IFC2X3 model');
    assertEqual(grids.length, 7, 'grids');
    assertEqual(grids.reduce((n, g) => n + g.axes.length, 0), 63, 'axes');
    assertDeepEqual(grids, readGrids(reference, a, '0'));
    reference.CloseModel(a);
    ours.CloseModel(b);
  });
});
