// The sample generator's scans (samples/scan.js, las-writer.js, scan-files.js): points lie on
// the building's surfaces and are seen from their scanner, counts are as asked, the same seed
// gives the same bytes, the LAS header is right, and the LAS and E57 of one building, read back
// with the project's readers, hold the same points; a georeferenced scan lies on its building.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildingText } from '../../../samples/building.js';
import { sampleScan } from '../../../samples/files.js';
import { LasWriter } from '../../../samples/las-writer.js';
import { NOISE_LIMIT, createScan } from '../../../samples/scan.js';
import { parseScanName, writeScanE57, writeScanLas } from '../../../samples/scan-files.js';
import { KIND, KINDS, buildingSolids } from '../../../samples/scan-solids.js';
import { sampleOptions } from '../../../samples/variants.js';
import { verifySample } from '../../../samples/verify.js';
import * as WebIfc from 'web-ifc';
import { openPointFile, type PointBatch } from '../../pointcloud/point-reader.js';

type Vec3 = [number, number, number];
type Truth = ReturnType<typeof buildingText>['truth'];
type Solid = { min: Vec3; max: Vec3; planes: [number, number, number, number][]; kind: number; product: number };
type Ground = { z: number; min: [number, number]; max: [number, number] };

const tmp = mkdtempSync(path.join(tmpdir(), 'scan-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const house = buildingText(sampleOptions('house')!).truth;
const utm = buildingText(sampleOptions('house-utm')!).truth;
const NOISE = 0.002;
/** How far noise moves a point off its surface, and rounding slack. */
const TOLERANCE = NOISE_LIMIT * NOISE + 1e-6;

/** Every point of a scan, with its scan's index and kind, gathered (small scans only). */
function gather(truth: Truth, options: Parameters<typeof createScan>[1]) {
  const scan = createScan(truth, options);
  const points: { p: Vec3; scan: number; kind: number; classification: number; color: Vec3; intensity: number }[] = [];
  const perScan = new Array(scan.plan.scans.length).fill(0);
  for (const b of scan.batches()) {
    assert.equal(b.positions.length, 3 * b.count);
    for (let i = 0; i < b.count; i++) {
      points.push({
        p: [b.positions[3 * i], b.positions[3 * i + 1], b.positions[3 * i + 2]],
        scan: b.scan,
        kind: b.kind[i],
        classification: b.classification[i],
        color: [b.colors[3 * i], b.colors[3 * i + 1], b.colors[3 * i + 2]],
        intensity: b.intensity[i],
      });
    }
    perScan[b.scan] += b.count;
  }
  return { scan, points, perScan };
}

/** How far a point is outside a convex solid (negative: how deep inside), from its box and its planes. */
function signedDistance(p: Vec3, s: Solid): number {
  let outside = 0;
  let depth = Infinity;
  for (let k = 0; k < 3; k++) {
    const d = Math.max(s.min[k] - p[k], 0, p[k] - s.max[k]);
    outside += d * d;
    depth = Math.min(depth, p[k] - s.min[k], s.max[k] - p[k]);
  }
  let plane = -Infinity;
  for (const [nx, ny, nz, d] of s.planes) plane = Math.max(plane, nx * p[0] + ny * p[1] + nz * p[2] - d);
  if (outside > 0) return Math.max(Math.sqrt(outside), plane);
  return Math.max(-depth, plane);
}

/** Whether the open segment a -> b passes through a solid or under the ground (slab test, written here apart from samples/ray-grid.js). */
function blocked(a: Vec3, b: Vec3, solids: Solid[], ground: Ground): boolean {
  const d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  if (a[2] < ground.z || b[2] < ground.z - 1e-9) return true;
  for (const s of solids) {
    let near = 1e-9, far = 1 - 1e-9;
    for (let k = 0; k < 3 && near <= far; k++) {
      if (d[k] === 0) {
        if (a[k] <= s.min[k] || a[k] >= s.max[k]) far = -1;
        continue;
      }
      let t0 = (s.min[k] - a[k]) / d[k], t1 = (s.max[k] - a[k]) / d[k];
      if (t0 > t1) [t0, t1] = [t1, t0];
      near = Math.max(near, t0);
      far = Math.min(far, t1);
    }
    for (const [nx, ny, nz, w] of s.planes) {
      if (near > far) break;
      const along = nx * d[0] + ny * d[1] + nz * d[2];
      const room = w - (nx * a[0] + ny * a[1] + nz * a[2]);
      if (along === 0) {
        if (room <= 0) far = -1;
        continue;
      }
      const t = room / along;
      if (along < 0) near = Math.max(near, t);
      else far = Math.min(far, t);
    }
    if (far - near > 1e-7) return true; // a stretch of the segment runs inside the solid
  }
  return false;
}

describe('sample scans (samples/scan.js)', () => {
  const { scan, points, perScan } = gather(house, { points: 20000, noise: NOISE });
  const solids = scan.solids as Solid[];
  const ground = scan.plan.ground as Ground;

  it('makes as many points as asked, shared between the scanners, rooms and outside', () => {
    assert.equal(points.length, 20000);
    assert.deepEqual(perScan, scan.plan.scans.map((s) => s.count));
    assert.equal(scan.plan.scans.filter((s) => s.inside).length, 6);
    assert.equal(scan.plan.scans.filter((s) => !s.inside).length, 4);
    for (const n of [0, 1, 12345]) {
      let count = 0;
      for (const b of createScan(house, { points: n, batchSize: 1000 }).batches()) count += b.count;
      assert.equal(count, n);
    }
    assert.throws(() => createScan(house, { points: -1 }), /whole number/);
  });

  it('puts every point on a surface of the building or on the ground, none inside a solid, each with its kind', () => {
    const kinds = new Set<number>();
    for (const { p, kind, classification } of points) {
      kinds.add(kind);
      let nearest = Infinity;
      let nearestOfKind = Infinity;
      let deepest: { d: number; s: Solid } | null = null;
      for (const s of solids) {
        const d = signedDistance(p, s);
        if (!deepest || d < deepest.d) deepest = { d, s };
        nearest = Math.min(nearest, Math.abs(d));
        if (s.kind === kind) nearestOfKind = Math.min(nearestOfKind, Math.abs(d));
      }
      if (deepest && deepest.d <= -TOLERANCE) assert.fail(`point ${p} lies ${(-deepest.d * 1000).toFixed(1)} mm inside a ${KINDS[deepest.s.kind].name} of product #${deepest.s.product}`);
      if (kind === KIND.ground) {
        assert.ok(Math.abs(p[2] - ground.z) <= TOLERANCE, `ground point ${p} at the ground's level`);
        assert.ok(p[0] >= ground.min[0] - TOLERANCE && p[0] <= ground.max[0] + TOLERANCE && p[1] >= ground.min[1] - TOLERANCE && p[1] <= ground.max[1] + TOLERANCE);
        assert.equal(classification, 2);
      } else {
        assert.ok(nearestOfKind <= TOLERANCE, `point ${p} (${KINDS[kind].name}) lies ${(nearestOfKind * 1000).toFixed(1)} mm from every ${KINDS[kind].name}; nearest surface ${(nearest * 1000).toFixed(1)} mm`);
        assert.equal(classification, 6);
      }
    }
    // Rooms and outside see every kind of thing the house has.
    for (const name of ['ground', 'exterior wall', 'partition', 'slab', 'roof', 'door', 'window frame', 'glass', 'stair', 'furniture']) assert.ok(kinds.has(KIND[name]), `some point on a ${name}`);
  });

  it("rebuilds each product's solids inside the truth's box of it, filling it", () => {
    const byId = new Map(house.products.map((p) => [p.id, p]));
    const union = new Map<number, { min: Vec3; max: Vec3 }>();
    for (const s of solids) {
      const box = byId.get(s.product)?.box;
      assert.ok(box, `solid of product #${s.product} has a box in the truth`);
      for (let k = 0; k < 3; k++) assert.ok(s.min[k] >= box.min[k] - 1e-9 && s.max[k] <= box.max[k] + 1e-9, `solid of ${byId.get(s.product)!.name} inside its box`);
      const u = union.get(s.product) ?? { min: [...s.min] as Vec3, max: [...s.max] as Vec3 };
      for (let k = 0; k < 3; k++) {
        u.min[k] = Math.min(u.min[k], s.min[k]);
        u.max[k] = Math.max(u.max[k], s.max[k]);
      }
      union.set(s.product, u);
    }
    const drawn = house.products.filter((p) => p.box && !['IfcSpace', 'IfcOpeningElement'].includes(p.type));
    assert.deepEqual(drawn.filter((p) => !union.has(p.id)).map((p) => p.name), [], 'every drawn product has solids');
    for (const p of drawn) {
      if (p.type === 'IfcStairFlight') continue; // its profile's top corner is an edge of no width
      const u = union.get(p.id)!;
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(u.min[k] - p.box!.min[k]) < 1e-9 && Math.abs(u.max[k] - p.box!.max[k]) < 1e-9, `${p.name}'s solids fill its box`);
      }
    }
  });

  it('gives every point a clear line of sight from its own scanner', () => {
    for (const { p, scan: index } of points) {
      const from = scan.plan.scans[index].position as Vec3;
      const d: Vec3 = [p[0] - from[0], p[1] - from[1], p[2] - from[2]];
      const length = Math.hypot(...d);
      // Short of the point by the most noise can move it, so the surface it lies on does not count.
      const stop = 1 - (TOLERANCE + 1e-4) / length;
      const end: Vec3 = [from[0] + d[0] * stop, from[1] + d[1] * stop, from[2] + d[2] * stop];
      assert.ok(!blocked(from, end, solids, ground), `point ${p} is hidden from scanner ${scan.plan.scans[index].name}`);
    }
  });

  it('colours by kind with a little variation, intensity from 1 to 65535', () => {
    for (const { kind, color, intensity } of points) {
      const base = KINDS[kind].color;
      for (let c = 0; c < 3; c++) {
        assert.equal(color[c] % 257, 0, '8-bit colours scaled to 16 bits');
        assert.ok(Math.abs(color[c] / 257 - base[c]) <= base[c] * KINDS[kind].variation + 1, `${KINDS[kind].name} colour near its own`);
      }
      assert.ok(intensity >= 1 && intensity <= 65535);
    }
  });

  it('gives the same bytes for the same seed, other bytes for another, in one thread or several', async () => {
    const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    const a = path.join(tmp, 'a.las'), b = path.join(tmp, 'b.las'), c = path.join(tmp, 'c.las');
    await writeScanLas(a, house, { points: 30000, seed: 'one' });
    await writeScanLas(b, house, { points: 30000, seed: 'one', workers: 3 });
    await writeScanLas(c, house, { points: 30000, seed: 'two' });
    assert.equal(hash(a), hash(b), 'three worker threads write what one does');
    assert.notEqual(hash(a), hash(c));
    const d = path.join(tmp, 'd.e57'), e = path.join(tmp, 'e.e57');
    await writeScanE57(d, house, { points: 20000, seed: 'one' });
    await writeScanE57(e, house, { points: 20000, seed: 'one' });
    assert.equal(hash(d), hash(e), 'E57 too');
  });

  it('writes a LAS 1.4 header that says what the records hold (read from the bytes)', async () => {
    const file = path.join(tmp, 'header.las');
    const written = await writeScanLas(file, house, { points: 25000, noise: NOISE });
    const bytes = readFileSync(file);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(bytes.subarray(0, 4).toString('latin1'), 'LASF');
    assert.deepEqual([bytes[24], bytes[25]], [1, 4]);
    assert.equal(view.getUint16(94, true), 375);
    const pointOffset = view.getUint32(96, true);
    assert.equal(bytes[104], 7);
    assert.equal(view.getUint16(105, true), 36);
    assert.equal(view.getUint32(107, true), 0, 'legacy count 0 for format 7');
    assert.equal(view.getBigUint64(247, true), 25000n);
    assert.equal(bytes.length, pointOffset + 25000 * 36);
    const scale = [0, 1, 2].map((k) => view.getFloat64(131 + 8 * k, true));
    const offset = [0, 1, 2].map((k) => view.getFloat64(155 + 8 * k, true));
    assert.deepEqual(scale, [0.001, 0.001, 0.001]);
    assert.deepEqual(offset, written.plan.origin);
    // The records against the generator's own points, and the header's bounds against the records.
    const expected = createScan(house, { points: 25000, noise: NOISE, seed: written.plan.seed });
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let i = 0;
    for (const b of expected.batches()) {
      for (let j = 0; j < b.count; j++, i++) {
        const at = pointOffset + 36 * i;
        for (let k = 0; k < 3; k++) {
          const v = offset[k] + view.getInt32(at + 4 * k, true) * scale[k];
          assert.ok(Math.abs(v - b.positions[3 * j + k]) <= 0.0005 + 1e-9, `record ${i} coordinate ${k}`);
          assert.ok(v >= written.plan.bounds.min[k] && v <= written.plan.bounds.max[k], 'within the bounds the plan promised');
          lo[k] = Math.min(lo[k], v);
          hi[k] = Math.max(hi[k], v);
        }
        assert.equal(view.getUint16(at + 12, true), b.intensity[j]);
        assert.equal(bytes[at + 16], b.classification[j]);
        assert.equal(bytes[at + 17], b.kind[j], 'user data: the kind');
        assert.equal(view.getUint16(at + 20, true), b.scan + 1, 'point source: the scan');
        assert.equal(view.getFloat64(at + 22, true), b.scan, 'GPS time: the scan');
        assert.deepEqual([view.getUint16(at + 30, true), view.getUint16(at + 32, true), view.getUint16(at + 34, true)], [...b.colors.subarray(3 * j, 3 * j + 3)]);
      }
    }
    assert.equal(i, 25000);
    for (let k = 0; k < 3; k++) {
      assert.ok(Math.abs(view.getFloat64(187 + 16 * k, true) - lo[k]) < 1e-9, `min ${k}`);
      assert.ok(Math.abs(view.getFloat64(179 + 16 * k, true) - hi[k]) < 1e-9, `max ${k}`);
    }
  });

  it('refuses coordinates that do not fit 32-bit integers around the offset', () => {
    const las = new LasWriter(path.join(tmp, 'far.las'), { offset: [0, 0, 0] });
    assert.throws(() => las.write({ count: 1, positions: [3e6, 0, 0] }), /too far from the offset/);
    las.close();
  });

  it('reads back the LAS and the E57 of one building as the same points, within a millimetre', async () => {
    const las = path.join(tmp, 'same.las'), e57 = path.join(tmp, 'same.e57');
    const options = { points: 40000, noise: NOISE };
    const a = await writeScanLas(las, house, options);
    const b = await writeScanE57(e57, house, options);
    assert.equal(b.points, 40000 + 5 * 4, 'the E57 records: every point and an invalid one per thousand in the five spherical scans');
    const lasReader = await openPointFile(las);
    const e57Reader = await openPointFile(e57);
    try {
      assert.equal(lasReader.info.format, 'las');
      assert.equal(lasReader.info.pointCount, 40000);
      assert.equal(e57Reader.info.format, 'e57');
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(lasReader.info.bounds!.min[k] - a.min[k]) < 1e-9 && Math.abs(lasReader.info.bounds!.max[k] - a.max[k]) < 1e-9, 'the LAS reader finds the header bounds');
      }
      const fromLas = await collect(lasReader.batches());
      const fromE57 = await collect(e57Reader.batches());
      assert.equal(fromLas.count, 40000);
      assert.equal(fromE57.count, 40000, 'invalid records left out');
      let worst = 0;
      for (let i = 0; i < 40000; i++) {
        const d = Math.hypot(fromLas.positions[3 * i] - fromE57.positions[3 * i], fromLas.positions[3 * i + 1] - fromE57.positions[3 * i + 1], fromLas.positions[3 * i + 2] - fromE57.positions[3 * i + 2]);
        worst = Math.max(worst, d);
        for (let c = 0; c < 3; c++) assert.equal(fromLas.colors[3 * i + c], fromE57.colors[3 * i + c], `point ${i}: same colour`);
        assert.equal(fromLas.intensity[i], fromE57.intensity[i], `point ${i}: same intensity`);
      }
      assert.ok(worst <= 0.001, `LAS and E57 points ${(worst * 1000).toFixed(3)} mm apart at most`);
      assert.ok(worst > 0, 'the two files are written apart (LAS millimetres, E57 tenths in the scanner frame)');
    } finally {
      await lasReader.close();
      await e57Reader.close();
    }
  });

  it('scans a georeferenced building in its own coordinates: the house moved to UTM, point for point', async () => {
    const far = gather(utm, { points: 5000, noise: NOISE, seed: 'same' });
    const near = gather(house, { points: 5000, noise: NOISE, seed: 'same' });
    const g = utm.georeference!;
    const shift: Vec3 = [g.eastings, g.northings, g.height];
    assert.ok(far.points.every(({ p }) => p[0] > 512000 && p[1] > 5403000));
    for (let i = 0; i < 5000; i++) {
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(far.points[i].p[k] - (near.points[i].p[k] + shift[k])) < 1e-6, `point ${i} moved by the georeference`);
    }
    // ... and on the UTM building's own solids, not inside any.
    const { solids: farSolids } = buildingSolids(utm) as { solids: Solid[] };
    for (const { p, kind } of far.points) {
      if (kind === KIND.ground) continue;
      let nearest = Infinity;
      let deepest = Infinity;
      for (const s of farSolids) {
        const d = signedDistance(p, s);
        deepest = Math.min(deepest, d);
        nearest = Math.min(nearest, Math.abs(d));
      }
      assert.ok(deepest > -TOLERANCE, `UTM point ${p} not inside a solid`);
      assert.ok(nearest <= TOLERANCE, `UTM point ${p} on the UTM building`);
    }
    // The LAS keeps millimetres at those coordinates, and says its coordinate system.
    const file = path.join(tmp, 'utm.las');
    await writeScanLas(file, utm, { points: 5000, noise: NOISE, seed: 'same' });
    const reader = await openPointFile(file);
    try {
      assert.match(reader.info.projection, /UTM zone 32N|32632/);
      const back = await collect(reader.batches());
      for (let i = 0; i < 5000; i++) for (let k = 0; k < 3; k++) assert.ok(Math.abs(back.positions[3 * i + k] - far.points[i].p[k]) <= 0.0005 + 1e-6);
    } finally {
      await reader.close();
    }
  });

  it("draws the UTM house's IFC where its truth says (web-ifc), the boxes its scan is made from", async () => {
    const api = new WebIfc.IfcAPI();
    await api.Init(undefined, true);
    const { text, truth } = buildingText(sampleOptions('house-utm')!);
    assert.deepEqual(verifySample(WebIfc, api, new TextEncoder().encode(text), truth), []);
    assert.deepEqual(truth.box, utm.box);
  });

  it('caches named scans beside their building, made once', async () => {
    const dir = path.join(tmp, 'cache');
    const [las, twice] = await Promise.all([sampleScan('cabin.scan-3k.las', { dir }), sampleScan('cabin.scan-3k.las', { dir })]);
    assert.equal(twice, las, 'asked twice at once: made once');
    assert.ok(existsSync(path.join(path.dirname(las), 'cabin.ifc')), 'the IFC it lines up with, beside it');
    const made = statSync(las).mtimeMs;
    assert.equal(await sampleScan('cabin.scan-3k.las', { dir }), las);
    assert.equal(statSync(las).mtimeMs, made, 'not made again');
    const e57 = await sampleScan('cabin.scan-2k.e57', { dir });
    for (const [file, count] of [[las, 3000], [e57, 2000]] as const) {
      const reader = await openPointFile(file);
      try {
        assert.equal((await collect(reader.batches())).count, count);
      } finally {
        await reader.close();
      }
    }
    await assert.rejects(sampleScan('castle.scan.las', { dir }), /no sample scan called castle.scan.las/);
    await assert.rejects(sampleScan('cabin.las', { dir }), /no sample scan/);
  });

  it('names scans: building, size and format', () => {
    assert.deepEqual(parseScanName('house.scan.las'), { building: 'house', points: 1e6, format: 'las' });
    assert.deepEqual(parseScanName('office-200k.scan-20m.las'), { building: 'office-200k', points: 20e6, format: 'las' });
    assert.deepEqual(parseScanName('house-utm.scan-250k.e57'), { building: 'house-utm', points: 250000, format: 'e57' });
    assert.deepEqual(parseScanName('cabin.scan-1234.E57'), { building: 'cabin', points: 1234, format: 'e57' });
    assert.equal(parseScanName('house.las'), null);
    assert.equal(parseScanName('house.scan-0.las'), null);
  });
});

/** A reader's batches, copied into one set of arrays. */
async function collect(batches: AsyncIterable<PointBatch>) {
  const positions: number[] = [], colors: number[] = [], intensity: number[] = [];
  let count = 0;
  for await (const b of batches) {
    count += b.count;
    for (let i = 0; i < 3 * b.count; i++) positions.push(b.positions[i]);
    for (let i = 0; i < 3 * b.count; i++) colors.push(b.colors ? b.colors[i] : -1);
    for (let i = 0; i < b.count; i++) intensity.push(b.intensity ? b.intensity[i] : -1);
  }
  return { count, positions, colors, intensity };
}
