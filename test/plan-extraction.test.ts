// Storey plans of the generated sample buildings, extracted in the plan worker
// (src/core/plan): storeys, space footprints, the section cut, what lies below it and the
// doors' plan symbols, against each file's truth (test/support/samples.ts). Real files:
// test/real-models/plan-extraction.test.ts.
import { PlanClient } from '../src/core/plan/plan-client';
import { contains, signedArea } from '../src/core/plan/polygon';
import type { PlanLines, PlanModel, PlanStorey } from '../src/core/plan/protocol';
import { assert, assertAlmostEqual, assertDeepEqual, assertEqual, assertRejects } from './support/assert';
import { SAMPLES, objectIdOf, productsOf, truthOf, type Truth } from './support/samples';
import { count, isClosed, planOf, ring } from './support/plan';

let client: PlanClient;

const rings = (lines: PlanLines) => Array.from({ length: count(lines) }, (_, i) => ({ owner: lines.owners[i], points: ring(lines, i) }));
/** The sorted distinct owners of some lines. */
const owners = (lines: PlanLines) => [...new Set(lines.owners)].sort((a, b) => a - b);
const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** The storey's products of some types, from the truth. */
function onStorey(truth: Truth, storeyId: number, ...types: string[]) {
  return productsOf(truth, ...types).filter((p) => p.storey === storeyId);
}

/** Centre and radius of the circle through three points (worked out relative to the first: georeferenced coordinates are large). */
function circleThrough(a: [number, number], b: [number, number], c: [number, number]): { x: number; y: number; r: number } {
  const [bx, by, cx, cy] = [b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1]];
  const d = 2 * (bx * cy - by * cx);
  const x = (cy * (bx * bx + by * by) - by * (cx * cx + cy * cy)) / d;
  const y = (bx * (cx * cx + cy * cy) - cx * (bx * bx + by * by)) / d;
  return { x: a[0] + x, y: a[1] + y, r: Math.hypot(x, y) };
}

/**
 * How exactly areas can match: web-ifc hands meshes over in float32 (in each object's
 * frame), so a 6 x 5 m room's corners are off by up to ~2e-7 m and its area by ~2e-6 m².
 */
const AREA = 1e-5;

const point = (points: Float64Array, i: number): [number, number] => [points[2 * i], points[2 * i + 1]];

/** The generated variants the plan is checked on, with what sets each apart. */
const VARIANTS: Array<[string, string]> = [
  [SAMPLES.house, 'IFC4, metres'],
  [SAMPLES.houseIfc2x3, 'IFC2X3 in millimetres, door arcs trimmed in degrees'],
  [SAMPLES.houseIfc4x3, 'IFC4X3'],
  [SAMPLES.houseGeoreferenced, 'georeferenced, millions of metres from the origin'],
];

describe('plan extraction (core/plan in its worker)', function () {
  before(() => {
    client = new PlanClient();
  });
  after(() => client.dispose());

  it('extracts every storey of the house in well under a second of plan work, and says how long it took', async () => {
    const plan = await planOf(client, SAMPLES.house);
    const t = plan.timings;
    const planWork = t.total - t.open - t.meshes;
    console.log(`House plan timings (ms): ${JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])))}; plan work ${Math.round(planWork)} ms`);
    // The bench (bench/plan.mjs) measures this properly; here only a generous guard.
    assert(t.total < 5000, `whole extraction, parse included, took ${Math.round(t.total)} ms`);
    assert(planWork < 1500, `plan work took ${Math.round(planWork)} ms`);
  });

  for (const [url, what] of VARIANTS) {
    const name = url.replace(/^.*\/|\.ifc$/g, '');
    describe(`${name} (${what})`, function () {
      let plan: PlanModel;
      let truth: Truth;
      /** World z of the building's storeys: the site's height plus their elevation. */
      let siteZ: number;
      before(async () => {
        [plan, truth] = await Promise.all([planOf(client, url), truthOf(url)]);
        siteZ = truth.site.origin?.[2] ?? 0;
      });
      const storeyOf = (id: number): PlanStorey => {
        const storey = plan.storeys.find((s) => s.expressId === id);
        if (!storey) throw new Error(`no storey #${id} in the plan`);
        return storey;
      };

      it('storeys: names, GlobalIds, object ids and elevations from their placements, lowest first; the cut 1.2 m above each', () => {
        assertDeepEqual(plan.storeys.map((s) => s.name), truth.storeys.map((s) => s.name));
        assertDeepEqual(plan.storeys.map((s) => s.guid), truth.storeys.map((s) => s.guid));
        assertDeepEqual(plan.storeys.map((s) => s.objectId), truth.storeys.map((s) => objectIdOf(s.id)));
        plan.storeys.forEach((s, i) => {
          assertAlmostEqual(s.elevation, siteZ + truth.storeys[i].elevation, 1e-6, `${s.name}: world z`);
          assertAlmostEqual(s.cutZ, s.elevation + 1.2, 1e-9, `${s.name}: cut 1.2 m above the floor`);
          assertEqual(s.buildingId, objectIdOf(truth.building.id), `${s.name}: its building`);
          assertEqual(s.isDefault, false);
        });
      });

      it('spaces on their storeys, with names, long names (non-ASCII too), GlobalIds, exact areas and footprints, labels inside', () => {
        assertEqual(plan.spaces.length, truth.spaces.length);
        for (const expected of truth.spaces) {
          const space = plan.spaces.find((s) => s.expressId === expected.id);
          assert(space, `space ${expected.name} (#${expected.id}) in the plan`);
          assertEqual(space.name, expected.name);
          assertEqual(space.longName, expected.longName, `${expected.name}: long name`);
          assertEqual(space.guid, expected.guid, `${expected.name}: GlobalId`);
          assertEqual(space.objectId, objectIdOf(expected.id));
          const storey = plan.storeys[space.storey];
          assertEqual(storey.expressId, expected.storey, `${expected.name}: storey`);
          assert(storey.spaces.includes(plan.spaces.indexOf(space)), `${expected.name}: listed by its storey`);
          assertAlmostEqual(space.area, expected.area, AREA, `${expected.name} (${expected.shape}): area`);
          assertDeepEqual(Array.from(space.bounds).map((v) => Math.round(v * 1e6) / 1e6), [expected.box.min[0], expected.box.min[1], expected.box.max[0], expected.box.max[1]].map((v) => Math.round(v * 1e6) / 1e6), `${expected.name}: footprint bounds`);
          for (let i = 0; i < count(space.rings); i++) assert(isClosed(ring(space.rings, i)), `${expected.name}: ring ${i} closed`);
          assert(contains(space.rings, space.label[0], space.label[1]), `${expected.name}: label point inside`);
          assertAlmostEqual(space.bottom, expected.box.min[2], 1e-6, `${expected.name}: bottom`);
          assertAlmostEqual(space.top, expected.box.max[2], 1e-6, `${expected.name}: top`);
        }
        // The names the generator writes that are easy to garble.
        const longNames = new Set(plan.spaces.map((s) => s.longName));
        for (const longName of ['Küche', '会议室', "Manager's office", 'Café']) assert(longNames.has(longName), `a space called ${longName}: ${[...longNames]}`);
      });

      it('the space above a stair runs around the stair opening: outline minus hole, exactly the truth\'s area', () => {
        const holed = truth.spaces.filter((s) => s.shape === 'extrusion with hole');
        assertEqual(holed.length, truth.storeys.length - 1, 'one on every storey above the ground floor');
        for (const expected of holed) {
          const space = plan.spaces.find((s) => s.expressId === expected.id)!;
          const areas = rings(space.rings).map((r) => signedArea(r.points));
          assertEqual(areas.length, 2, `${expected.name}: an outline and a hole`);
          const outline = (expected.box.max[0] - expected.box.min[0]) * (expected.box.max[1] - expected.box.min[1]);
          assertAlmostEqual(Math.max(...areas), outline, AREA, `${expected.name}: the outline (counter-clockwise) is the room`);
          assertAlmostEqual(Math.min(...areas), expected.area - outline, AREA, `${expected.name}: the hole (clockwise) is what the room lacks`);
          assertAlmostEqual(areas[0] + areas[1], space.area, 1e-9, 'area = outlines - holes');
          // The flight coming up from the storey below lies in the hole.
          const below = truth.storeys[truth.storeys.findIndex((s) => s.id === expected.storey) - 1];
          const [flight] = onStorey(truth, below.id, 'IfcStairFlight');
          const cx = (flight.box!.min[0] + flight.box!.max[0]) / 2, cy = (flight.box!.min[1] + flight.box!.max[1]) / 2;
          assert(!contains(space.rings, cx, cy), `${expected.name}: the middle of the stair below (${cx}, ${cy}) is in the hole`);
          assert(contains(space.rings, space.label[0], space.label[1]), `${expected.name}: the label is beside the hole`);
        }
      });

      it('the space shaped by a faceted Brep has the same footprint as an extruded one', () => {
        const breps = truth.spaces.filter((s) => s.shape === 'brep');
        assertEqual(breps.length, 1);
        const space = plan.spaces.find((s) => s.expressId === breps[0].id)!;
        assertEqual(count(space.rings), 1, 'one outline');
        assertAlmostEqual(space.area, breps[0].area, AREA);
        assertAlmostEqual(signedArea(ring(space.rings, 0)), breps[0].area, AREA, 'counter-clockwise');
      });

      it('the cut: every wall in closed loops (one more than its openings), each door and window, the stair flight as "other"; columns are solid', () => {
        for (const s of truth.storeys) {
          const storey = storeyOf(s.id);
          const walls = onStorey(truth, s.id, 'IfcWall', 'IfcWallStandardCase');
          const columns = onStorey(truth, s.id, 'IfcColumn');
          assertDeepEqual(owners(storey.cut.solid), sortedIds([...walls, ...columns].map((p) => p.id)), `${s.name}: solid owners are the walls and columns`);
          for (const r of rings(storey.cut.solid)) assert(isClosed(r.points), `${s.name}: the loop of #${r.owner} is closed`);
          for (const wall of walls) {
            const openings = truth.products.filter((p) => p.type === 'IfcOpeningElement' && p.parent === wall.id).length;
            const loops = rings(storey.cut.solid).filter((r) => r.owner === wall.id).length;
            assertEqual(loops, openings + 1, `${wall.name}: ${openings} openings cut through it`);
          }
          assertDeepEqual(owners(storey.cut.door), sortedIds(onStorey(truth, s.id, 'IfcDoor').map((p) => p.id)), `${s.name}: doors cut`);
          assertDeepEqual(owners(storey.cut.window), sortedIds(onStorey(truth, s.id, 'IfcWindow').map((p) => p.id)), `${s.name}: windows cut`);
          assertDeepEqual(owners(storey.cut.other), sortedIds(onStorey(truth, s.id, 'IfcStairFlight').map((p) => p.id)), `${s.name}: the stair (its flight) is cut, as "other"`);
        }
        assert(truth.storeys.slice(0, -1).every((s) => count(storeyOf(s.id).cut.other) > 0), 'every storey but the top one has a stair');
      });

      it('furniture below the cut: every table on its storey, seen from above', () => {
        for (const s of truth.storeys) {
          const storey = storeyOf(s.id);
          // Edges below the cut are drawn as one (their owners are not kept): find the tables' tops by their corners.
          const points = storey.below.coords;
          const drawnAt = (x: number, y: number) => {
            for (let i = 0; i < points.length; i += 2) if (Math.abs(points[i] - x) < 1e-5 && Math.abs(points[i + 1] - y) < 1e-5) return true;
            return false;
          };
          const tables = onStorey(truth, s.id, 'IfcFurniture', 'IfcFurnishingElement');
          assertEqual(tables.length, truth.spaces.filter((sp) => sp.storey === s.id).length, 'a table per room');
          for (const { name, box } of tables) {
            const corners = [[box!.min[0], box!.min[1]], [box!.max[0], box!.min[1]], [box!.max[0], box!.max[1]], [box!.min[0], box!.max[1]]];
            assert(corners.every(([x, y]) => drawnAt(x, y)), `${s.name}: ${name} is drawn below the cut (its top's corners)`);
          }
        }
      });

      it('door symbols: for each door a leaf as long as the door is wide and a quarter arc around its hinge, in metres', () => {
        for (const s of truth.storeys) {
          const storey = storeyOf(s.id);
          const doors = onStorey(truth, s.id, 'IfcDoor');
          assertDeepEqual(owners(storey.symbols), sortedIds(doors.map((d) => d.id)), `${s.name}: symbols of its own doors only`);
          for (const door of doors) {
            const box = door.box!;
            const width = Math.max(box.max[0] - box.min[0], box.max[1] - box.min[1]);
            const lines = rings(storey.symbols).filter((r) => r.owner === door.id).map((r) => r.points);
            assertEqual(lines.length, 2, `${door.name}: a leaf and an arc`);
            const arc = lines.find((l) => l.length > 4)!;
            const leaf = lines.find((l) => l.length === 4);
            assert(arc && leaf, `${door.name}: a straight leaf and a curved arc (${lines.map((l) => l.length / 2)} points)`);
            const n = arc.length / 2;
            assert(n >= 8, `${door.name}: the arc has ${n} points`);
            const c = circleThrough(point(arc, 0), point(arc, n >> 1), point(arc, n - 1));
            assertAlmostEqual(c.r, width, 1e-4, `${door.name}: arc radius = door width`);
            for (let i = 0; i < n; i++) assertAlmostEqual(Math.hypot(arc[2 * i] - c.x, arc[2 * i + 1] - c.y), width, 1e-4, `${door.name}: arc point ${i} on the circle`);
            const turn = Math.abs(Math.atan2(arc[2 * n - 1] - c.y, arc[2 * n - 2] - c.x) - Math.atan2(arc[1] - c.y, arc[0] - c.x));
            assertAlmostEqual(Math.min(turn, 2 * Math.PI - turn), Math.PI / 2, 1e-3, `${door.name}: a quarter turn`);
            // The hinge is on the door leaf's end: inside its box (seen from above).
            assert(c.x >= box.min[0] - 1e-4 && c.x <= box.max[0] + 1e-4 && c.y >= box.min[1] - 1e-4 && c.y <= box.max[1] + 1e-4, `${door.name}: hinge (${c.x}, ${c.y}) at the door ${JSON.stringify(box)}`);
            const ends = [point(leaf, 0), point(leaf, 1)];
            assertAlmostEqual(Math.hypot(ends[0][0] - ends[1][0], ends[0][1] - ends[1][1]), width, 1e-4, `${door.name}: leaf length`);
            assert(ends.some((e) => Math.hypot(e[0] - c.x, e[1] - c.y) < 1e-4), `${door.name}: the leaf starts at the hinge`);
          }
        }
      });

      it('every storey has something to draw and bounds around its walls', () => {
        for (const s of truth.storeys) {
          const storey = storeyOf(s.id);
          const walls = onStorey(truth, s.id, 'IfcWall', 'IfcWallStandardCase');
          const minX = Math.min(...walls.map((w) => w.box!.min[0])), maxX = Math.max(...walls.map((w) => w.box!.max[0]));
          const minY = Math.min(...walls.map((w) => w.box!.min[1])), maxY = Math.max(...walls.map((w) => w.box!.max[1]));
          assert(storey.bounds[0] <= minX + 1e-6 && storey.bounds[2] >= maxX - 1e-6 && storey.bounds[1] <= minY + 1e-6 && storey.bounds[3] >= maxY - 1e-6, `${s.name}: bounds ${Array.from(storey.bounds)} hold the walls`);
          assert(count(storey.below) > 0, `${s.name}: edges below the cut`);
        }
      });
    });
  }

  it('object ids are objectIdBase + express id', async () => {
    const truth = await truthOf(SAMPLES.cabin);
    const bytes = await (await fetch(SAMPLES.cabin)).arrayBuffer();
    const plan = await client.plan(bytes, '8589934592');
    assertEqual(plan.spaces[0].objectId, objectIdOf(truth.spaces[0].id, '8589934592'));
    assertEqual(plan.storeys[0].objectId, objectIdOf(truth.storeys[0].id, '8589934592'));
    assertEqual(plan.storeys[0].buildingId, objectIdOf(truth.building.id, '8589934592'));
  });

  it('rejects what is not IFC, and truncated IFC, with a message', async () => {
    await assertRejects(client.plan(new TextEncoder().encode('hello').buffer, '0'), /Not an IFC file/);
    const bytes = new Uint8Array(await (await fetch(SAMPLES.cabin)).arrayBuffer());
    await assertRejects(client.plan(bytes.slice(0, 2000).buffer, '0'), /truncated/);
    // The worker still works afterwards.
    const again = await client.plan(bytes.buffer, '0');
    assertEqual(again.spaces.length, (await truthOf(SAMPLES.cabin)).spaces.length);
  });
});
