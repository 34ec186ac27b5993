// Storey plans of real IFC files (BIM_MODELS), extracted in the plan worker: what each
// file has, and a real-world quirk (a model without storeys). The features themselves
// are tested on the generated buildings in test/plan-extraction.test.ts.
import { PlanClient } from '../../src/core/plan/plan-client';
import { contains } from '../../src/core/plan/polygon';
import { assert, assertDeepEqual, assertEqual } from '../support/assert';
import { REAL_MODELS } from '../support/real-models';
import { count, isClosed, planOf, ring } from '../support/plan';

let client: PlanClient;

/** What MANIFEST.tsv (BIM_MODELS) says each file holds: storeys (IfcBuildingStorey) and spaces. */
const FILES: Array<[keyof typeof REAL_MODELS, number, number]> = [
  ['duplex', 4, 21],
  ['fzk', 2, 7],
  ['location', 3, 48],
  ['bpi', 0, 8],
  ['pcert', 1, 2],
  ['helloWall', 1, 1],
  ['tekla', 1, 0],
  ['grid', 1, 0],
];

describe('plan extraction of real files (core/plan in its worker)', function () {
  before(() => {
    client = new PlanClient();
  });
  after(() => client.dispose());

  it('every real model: the storeys and spaces the file has, each space with a positive area and its label inside', async function () {
    for (const [key, storeys, spaces] of FILES) {
      const plan = await planOf(client, REAL_MODELS[key]);
      assertEqual(plan.storeys.length, Math.max(storeys, 1), `${key}: storeys (a default one when the file has none)`);
      assertEqual(plan.spaces.length, spaces, `${key}: spaces`);
      for (const space of plan.spaces) {
        assert(space.area > 0.1, `${key} ${space.name}: area ${space.area}`);
        assert(plan.storeys[space.storey].spaces.includes(plan.spaces.indexOf(space)), `${key} ${space.name}: listed by its storey`);
        for (let i = 0; i < count(space.rings); i++) assert(isClosed(ring(space.rings, i)), `${key} ${space.name}: ring ${i} closed`);
        assert(contains(space.rings, space.label[0], space.label[1]), `${key} ${space.name}: label point inside`);
      }
      for (const storey of plan.storeys) {
        const drawn = count(storey.cut.solid) + count(storey.cut.door) + count(storey.cut.window) + count(storey.cut.other) + count(storey.below) + storey.spaces.length;
        if (key !== 'duplex' && key !== 'location') assert(drawn > 0, `${key} ${storey.name}: something to draw`);
      }
    }
  });

  it('a model without storeys (bpi-office) shows its spaces under a default storey', async () => {
    const plan = await planOf(client, REAL_MODELS.bpi);
    assertEqual(plan.storeys.length, 1);
    const storey = plan.storeys[0];
    assertEqual(storey.isDefault, true);
    assertEqual(storey.name, 'Default storey');
    assertEqual(storey.spaces.length, 8);
    assert(count(storey.cut.solid) > 0, 'walls are cut');
    assertDeepEqual(plan.spaces.map((s) => s.longName).sort(), ['corr', 'finz', 'kitc', 'kris', 'prof', 'semi', 'soff', 'wc']);
  });
});
