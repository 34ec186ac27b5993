// Storey plans from real IFC files, extracted in the plan worker (src/core/plan): storeys,
// space footprints, the section cut, what lies below it and the doors' plan symbols.
import { PlanClient } from '../src/core/plan/plan-client';
import { contains, signedArea } from '../src/core/plan/polygon';
import type { PlanLines, PlanModel } from '../src/core/plan/protocol';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual, assertRejects } from './support/assert';
import { PLAN_MODELS } from './support/viewer2d';

const plans = new Map<string, PlanModel>();
let client: PlanClient;

async function planOf(url: string): Promise<PlanModel> {
  let plan = plans.get(url);
  if (!plan) {
    const bytes = await (await fetch(url)).arrayBuffer();
    plan = await client.plan(bytes, '0');
    plans.set(url, plan);
  }
  return plan;
}

const count = (lines: PlanLines) => lines.owners.length;
const ring = (lines: PlanLines, i: number) => lines.coords.subarray(lines.starts[i] * 2, lines.starts[i + 1] * 2);
const isClosed = (points: Float64Array) => points.length >= 8 && points[0] === points[points.length - 2] && points[1] === points[points.length - 1];

/** What public/models/MANIFEST.tsv says each sample holds: storeys (IfcBuildingStorey) and spaces. */
const SAMPLES: Array<[keyof typeof PLAN_MODELS, number, number]> = [
  ['duplex', 4, 21],
  ['fzk', 2, 7],
  ['location', 3, 48],
  ['bpi', 0, 8],
  ['pcert', 1, 2],
  ['helloWall', 1, 1],
  ['tekla', 1, 0],
  ['grid', 1, 0],
];

describe('plan extraction (core/plan in its worker)', function () {
  before(() => {
    client = new PlanClient();
  });
  after(() => client.dispose());

  it('extracts every storey of Duplex in well under a second of plan work, and says how long it took', async () => {
    const plan = await planOf(PLAN_MODELS.duplex);
    const t = plan.timings;
    const planWork = t.total - t.open - t.meshes - t.spaceMeshes;
    console.log(`Duplex plan timings (ms): ${JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])))}; plan work ${Math.round(planWork)} ms`);
    // The bench (bench/plan.mjs) measures this properly; here only a generous guard.
    assert(t.total < 5000, `whole extraction, parse included, took ${Math.round(t.total)} ms`);
    assert(planWork < 1500, `plan work took ${Math.round(planWork)} ms`);
  });

  it('Duplex: four storeys with names, GlobalIds and elevations from their placements, lowest first', async () => {
    const plan = await planOf(PLAN_MODELS.duplex);
    assertDeepEqual(plan.storeys.map((s) => s.name), ['T/FDN', 'Level 1', 'Level 2', 'Roof']);
    assertDeepEqual(plan.storeys.map((s) => Math.round(s.elevation * 1000) / 1000), [-1.25, 0, 3.1, 6]);
    assertEqual(plan.storeys[1].guid, '1xS3BCk291UvhgP2dvNMKI');
    assertEqual(plan.storeys[1].objectId, '39');
    assert(plan.storeys.every((s) => s.buildingId !== null), 'each storey knows its building');
    assertAlmostEqual(plan.storeys[1].cutZ, 1.2, 1e-9, 'cut 1.2 m above the floor');
  });

  it('Duplex: spaces on their storeys, with names, long names and closed footprints', async () => {
    const plan = await planOf(PLAN_MODELS.duplex);
    const byStorey = (name: string) => plan.spaces.filter((s) => plan.storeys[s.storey].name === name).map((s) => s.name).sort();
    assertDeepEqual(byStorey('Level 1'), ['A101', 'A102', 'A103', 'A104', 'A105', 'B101', 'B102', 'B103', 'B104', 'B105']);
    assertDeepEqual(byStorey('Level 2'), ['A201', 'A202', 'A203', 'A204', 'A205', 'B201', 'B202', 'B203', 'B204', 'B205']);
    assertDeepEqual(byStorey('Roof'), ['R301']);
    const foyer = plan.spaces.find((s) => s.name === 'A101')!;
    assertEqual(foyer.longName, 'Foyer');
    assertEqual(foyer.guid, '0BTBFw6f90Nfh9rP1dlXrr');
    // The upstairs hallway runs around the stair opening, which is left out of its footprint.
    const hallway = plan.spaces.find((s) => s.name === 'A201')!;
    const [x0, y0, x1, y1] = hallway.bounds;
    assert(hallway.area < 0.8 * (x1 - x0) * (y1 - y0), `the hallway (${hallway.area.toFixed(2)} m²) is not its bounding box`);
    assert(!contains(hallway.rings, hallway.label[0] + 100, hallway.label[1]), 'a far point is outside');
    const areas = Array.from({ length: count(hallway.rings) }, (_, i) => signedArea(ring(hallway.rings, i)));
    assertAlmostEqual(areas.reduce((a, b) => a + b, 0), hallway.area, 1e-9, 'area = outlines - holes');
  });

  it('Duplex: the cut has closed, filled wall loops, doors, windows and stairs; door swings and furniture below', async () => {
    const plan = await planOf(PLAN_MODELS.duplex);
    const level1 = plan.storeys.find((s) => s.name === 'Level 1')!;
    assert(count(level1.cut.solid) >= 20, `solid loops: ${count(level1.cut.solid)}`);
    const closed = Array.from({ length: count(level1.cut.solid) }, (_, i) => isClosed(ring(level1.cut.solid, i)));
    assert(closed.filter(Boolean).length / closed.length > 0.9, `most wall cuts are closed loops (${closed.filter(Boolean).length}/${closed.length})`);
    assert(count(level1.cut.door) > 0 && count(level1.cut.window) > 0 && count(level1.cut.other) > 0, 'doors, windows and other things (stairs) are cut');
    assert(count(level1.symbols) >= 20, `door symbols (leaves and swing arcs): ${count(level1.symbols)}`);
    assert(count(level1.below) > 100, `edges below the cut: ${count(level1.below)}`);
    const roof = plan.storeys.find((s) => s.name === 'Roof')!;
    assertEqual(count(roof.symbols), 0, 'no doors on the roof');
    // Door swings are arcs: a symbol polyline with many points.
    const longest = Math.max(...Array.from({ length: count(level1.symbols) }, (_, i) => ring(level1.symbols, i).length / 2));
    assert(longest >= 8, `an arc among the symbols (${longest} points)`);
  });

  it('every sample model: the storeys and spaces the file has, each space with a positive area and its label inside', async function () {
    for (const [key, storeys, spaces] of SAMPLES) {
      const plan = await planOf(PLAN_MODELS[key]);
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
    const plan = await planOf(PLAN_MODELS.bpi);
    assertEqual(plan.storeys.length, 1);
    const storey = plan.storeys[0];
    assertEqual(storey.isDefault, true);
    assertEqual(storey.name, 'Default storey');
    assertEqual(storey.spaces.length, 8);
    assert(count(storey.cut.solid) > 0, 'walls are cut');
    assertDeepEqual(plan.spaces.map((s) => s.longName).sort(), ['corr', 'finz', 'kitc', 'kris', 'prof', 'semi', 'soff', 'wc']);
  });

  it('object ids are objectIdBase + express id', async () => {
    const bytes = await (await fetch(PLAN_MODELS.helloWall)).arrayBuffer();
    const plan = await client.plan(bytes, '8589934592');
    assertEqual(plan.spaces[0].objectId, String(8589934592 + plan.spaces[0].expressId));
    assertEqual(plan.storeys[0].objectId, String(8589934592 + plan.storeys[0].expressId));
  });

  it('rejects what is not IFC, and truncated IFC, with a message', async () => {
    await assertRejects(client.plan(new TextEncoder().encode('hello').buffer, '0'), /Not an IFC file/);
    const bytes = new Uint8Array(await (await fetch(PLAN_MODELS.helloWall)).arrayBuffer());
    await assertRejects(client.plan(bytes.slice(0, 2000).buffer, '0'), /truncated/);
    // The worker still works afterwards.
    const again = await client.plan(bytes.buffer, '0');
    assertEqual(again.spaces.length, 1);
  });
});
