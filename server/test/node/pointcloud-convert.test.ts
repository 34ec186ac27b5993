import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  decodeHierarchyChunk,
  HIERARCHY_NODE_BYTES,
  nodeBounds,
  NodeType,
  type HierarchyEntry,
} from '../../../src/core/formats/pointcloud.js';
import { PointCloudError, openPointFile, type PointBatch, type PointCloudInfo, type PointReader } from '../../pointcloud/point-reader.js';
import { ArrayPointReader, boundsOf, spherePoints, type PointArrays } from '../../pointcloud/octree/array-reader.js';
import { convertPointCloud, type ConvertOptions, type ConvertSummary } from '../../pointcloud/octree/convert.js';
import { OctreeFile, type NodeRecords } from '../../pointcloud/octree/read-octree.js';
import { bimPointcloudsFolder } from '../../../scripts/bim-models.mjs';

/** The converter (scan -> octree file) on generated clouds and on the real scans. */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let dir: string;
before(() => void (dir = mkdtempSync(path.join(tmpdir(), 'pointcloud-convert-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Converted {
  file: OctreeFile;
  summary: ConvertSummary;
  nodes: Map<string, { entry: HierarchyEntry; records: NodeRecords }>;
}

async function convert(reader: PointReader, name: string, options: ConvertOptions = {}): Promise<Converted> {
  const out = path.join(dir, `${name}.bimcloud`);
  const summary = await convertPointCloud(reader, out, { sourceName: `${name}.las`, ...options });
  const file = await OctreeFile.open(out);
  const nodes = new Map<string, { entry: HierarchyEntry; records: NodeRecords }>();
  for (const entry of file.entries) nodes.set(entry.name, { entry, records: await file.nodeRecords(entry) });
  await file.close();
  return { file, summary, nodes };
}

/** A sphere, plus a dense knot (so one grid cell holds more than a chunk) and exact duplicates. */
function testCloud(count: number, center: [number, number, number], eightBit = false): PointArrays {
  const sphere = spherePoints(count, { center, radius: 10, eightBit });
  const knot = spherePoints(Math.floor(count / 4), { center: [center[0] + 10, center[1], center[2]], radius: 0.05, seed: 7, eightBit });
  const n = count + knot.positions.length / 3;
  const dup = 3000;
  const join = <T extends Float64Array | Uint16Array | Uint8Array>(a: T, b: T, per: number): T => {
    const out = new (a.constructor as new (n: number) => T)((n + dup) * per);
    out.set(a);
    out.set(b, a.length);
    // The duplicates: the first point again and again.
    for (let i = 0; i < dup; i++) for (let c = 0; c < per; c++) out[(n + i) * per + c] = a[c];
    return out;
  };
  return {
    positions: join(sphere.positions, knot.positions, 3),
    colors: join(sphere.colors!, knot.colors!, 3),
    intensity: join(sphere.intensity!, knot.intensity!, 1),
    classification: join(sphere.classification!, knot.classification!, 1),
  };
}

/** Each point as a sortable line: quantized position and attributes. */
function inputLines(points: PointArrays, offset: number[], scale: number[], rgbScale: number): string[] {
  const n = points.positions.length / 3;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const q = [0, 1, 2].map((a) => Math.round((points.positions[i * 3 + a] - offset[a]) / scale[a]));
    const rgb = [0, 1, 2].map((c) => points.colors![i * 3 + c] * rgbScale);
    lines.push(`${q.join(',')} ${points.intensity![i]} ${points.classification![i]} ${rgb.join(',')}`);
  }
  return lines.sort();
}

function outputLines(converted: Converted): string[] {
  const lines: string[] = [];
  for (const { records } of converted.nodes.values()) {
    for (let i = 0; i < records.count; i++) {
      const p = records.positions.subarray(i * 3, i * 3 + 3);
      const rgb = records.rgb!.subarray(i * 3, i * 3 + 3);
      lines.push(`${p.join(',')} ${records.intensity![i]} ${records.classification![i]} ${rgb.join(',')}`);
    }
  }
  return lines.sort();
}

/** The cube's edge in stored units (a power of two). */
const edgeUnits = (c: Converted) => Math.round((c.file.metadata.boundingBox.max[0] - c.file.metadata.boundingBox.min[0]) / c.file.metadata.scale[0]);

describe('convertPointCloud on a generated cloud', () => {
  const input = testCloud(160_000, [500_000, 5_400_000, 120]);
  const total = input.positions.length / 3;
  let converted: Converted;
  before(async () => {
    // Small chunks and nodes, so the levels above the chunks and the finer sorting on disk both run.
    converted = await convert(new ArrayPointReader(input), 'sphere', { maxChunkPoints: 25_000, maxNodePoints: 4_000 });
  });

  it('writes every point once: the nodes sum to the input, the summary and the metadata agree', () => {
    const sum = [...converted.nodes.values()].reduce((s, n) => s + n.records.count, 0);
    assert.equal(sum, total);
    assert.equal(converted.summary.points, total);
    assert.equal(converted.file.metadata.points, total);
    assert.equal(converted.summary.nodes, converted.nodes.size);
    assert.ok(converted.summary.depth >= 3, `depth ${converted.summary.depth}`);
    assert.match(converted.file.metadata.description, /none dropped/);
  });

  it('finds every input point in the output with its colour, intensity and class', () => {
    const { offset, scale } = converted.file.metadata;
    const expected = inputLines(input, offset, scale, 1);
    const actual = outputLines(converted);
    assert.equal(actual.length, expected.length);
    for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) assert.fail(`point ${i}: ${actual[i]} != ${expected[i]}`);
  });

  it('keeps millimetres at UTM coordinates, through the viewer decoder too', async () => {
    const { metadata } = converted.file;
    assert.deepEqual(metadata.scale, [0.001, 0.001, 0.001]);
    const tight = metadata.container.tightBoundingBox;
    const real = boundsOf(input.positions)!;
    for (let a = 0; a < 3; a++) {
      assert.equal(tight.min[a], real.min[a]);
      assert.equal(tight.max[a], real.max[a]);
    }
    // Every decoded point (float32 around its node's corner) is within half a millimetre of the stored one.
    const file = await OctreeFile.open(path.join(dir, 'sphere.bimcloud'));
    let worst = 0;
    for (const entry of file.entries) {
      const at = file.box(entry.name).min;
      const points = await file.nodePoints(entry, at);
      const { positions } = converted.nodes.get(entry.name)!.records;
      for (let i = 0; i < points.count * 3; i++) {
        const a = i % 3;
        const stored = metadata.offset[a] + positions[i] * metadata.scale[a];
        worst = Math.max(worst, Math.abs(points.positions[i] + at[a] - stored));
      }
    }
    await file.close();
    assert.ok(worst < 0.0005, `worst ${worst} m`);
  });

  it('puts each node\'s points in its box', () => {
    const { offset, scale, boundingBox } = converted.file.metadata;
    for (const [name, { records }] of converted.nodes) {
      const box = nodeBounds(boundingBox, name);
      for (let i = 0; i < records.count; i++) {
        for (let a = 0; a < 3; a++) {
          const v = offset[a] + records.positions[i * 3 + a] * scale[a];
          if (v < box.min[a] - 1e-6 || v >= box.max[a] + 1e-6) assert.fail(`${name}: point ${i} axis ${a} ${v} outside ${box.min[a]}..${box.max[a]}`);
        }
      }
    }
  });

  it('subsamples: an inner node keeps one point per cell of its 128^3 grid, and every child point shares its parent-grid cell with an ancestor point', () => {
    const { offset, scale, boundingBox, spacing } = converted.file.metadata;
    const edge = edgeUnits(converted);
    assert.ok(Math.abs(spacing - (edge * scale[0]) / 128) < 1e-12, `root spacing ${spacing}`);
    const units = (name: string) => nodeBounds(boundingBox, name).min.map((v, a) => Math.round((v - offset[a]) / scale[a]));
    const cellKey = (name: string, p: ArrayLike<number>) => {
      const origin = units(name);
      const cell = Math.max(1, edge / 2 ** (name.length - 1) / 128);
      return [0, 1, 2].map((a) => Math.floor((p[a] - origin[a]) / cell)).join(',');
    };
    let checked = 0;
    for (const [name, { entry, records }] of converted.nodes) {
      if (entry.childMask) {
        const keys = new Set<string>();
        for (let i = 0; i < records.count; i++) keys.add(cellKey(name, records.positions.subarray(i * 3, i * 3 + 3)));
        assert.equal(keys.size, records.count, `${name}: two points in one cell of its grid`);
      }
      if (name === 'r') continue;
      const parent = name.slice(0, -1);
      const occupied = new Set<string>();
      for (let l = 1; l <= parent.length; l++) {
        const ancestor = converted.nodes.get(name.slice(0, l))!.records;
        const origin = units(parent);
        const size = edge / 2 ** (parent.length - 1);
        for (let i = 0; i < ancestor.count; i++) {
          const p = ancestor.positions.subarray(i * 3, i * 3 + 3);
          if ([0, 1, 2].every((a) => p[a] >= origin[a] && p[a] < origin[a] + size)) occupied.add(cellKey(parent, p));
        }
      }
      for (let i = 0; i < records.count; i++) {
        if (!occupied.has(cellKey(parent, records.positions.subarray(i * 3, i * 3 + 3)))) assert.fail(`${name}: point ${i} refines no ancestor point`);
        checked++;
      }
    }
    assert.ok(checked > total / 2, `${checked} points checked`);
  });

  it('writes a hierarchy that decodes: breadth first, child masks naming nodes that exist, records inside the octree section without overlap', () => {
    const raw = readFileSync(path.join(dir, 'sphere.bimcloud'));
    const { metadata } = converted.file;
    const { hierarchy, octree } = metadata.container;
    assert.equal(metadata.hierarchy.firstChunkSize, hierarchy.size);
    assert.equal(hierarchy.size % HIERARCHY_NODE_BYTES, 0);
    const entries = decodeHierarchyChunk(new Uint8Array(raw.buffer, raw.byteOffset + hierarchy.offset, hierarchy.size), 'r');
    assert.equal(entries.length, converted.nodes.size);
    assert.equal(hierarchy.offset + hierarchy.size, octree.offset);
    assert.equal(octree.offset + octree.size, raw.length);
    const names = new Set(entries.map((e) => e.name));
    const bytesPerPoint = 12 + 2 + 1 + 6;
    let depth = 0;
    const ranges: [number, number][] = [];
    entries.forEach((entry, i) => {
      if (i > 0) assert.ok(entry.name.length >= entries[i - 1].name.length, 'breadth first');
      for (let c = 0; c < 8; c++) assert.equal(names.has(entry.name + c), !!(entry.childMask & (1 << c)), `${entry.name} child ${c}`);
      assert.equal(entry.type, entry.childMask ? NodeType.Normal : NodeType.Leaf);
      assert.equal(entry.byteSize, entry.numPoints * bytesPerPoint);
      assert.ok(entry.byteOffset + entry.byteSize <= octree.size);
      if (!entry.childMask) assert.ok(entry.numPoints <= 4_000 || entry.name.length === metadata.hierarchy.depth + 1, `${entry.name}: leaf of ${entry.numPoints}`);
      ranges.push([entry.byteOffset, entry.byteOffset + entry.byteSize]);
      depth = Math.max(depth, entry.name.length - 1);
    });
    assert.equal(metadata.hierarchy.depth, depth);
    ranges.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i++) assert.ok(ranges[i][0] >= ranges[i - 1][1], 'node records overlap');
    // Unused bytes: room left for the hierarchy, and what the levels above took from the chunks' regions.
    const used = ranges.reduce((s, r) => s + r[1] - r[0], 0);
    assert.ok(used >= 0.95 * octree.size, `${used} of ${octree.size} bytes used`);
    assert.equal(ranges.at(-1)![1], octree.size, 'the section ends with the last node');
    assert.deepEqual(metadata.attributes.map((a) => a.name), ['position', 'intensity', 'classification', 'rgb']);
  });
});

describe('convertPointCloud in worker threads', () => {
  it('writes the same nodes with the same points when two threads index the chunks', async () => {
    const input = testCloud(120_000, [2_000, 3_000, 40]);
    // The root's sorted points in memory, the dense cell's sorted again on disk.
    const options = { maxChunkPoints: 20_000, maxNodePoints: 3_000, memoryRuns: 4 << 20 };
    const one = await convert(new ArrayPointReader(input), 'one-thread', { ...options, threads: 1 });
    const two = await convert(new ArrayPointReader(input), 'two-threads', { ...options, threads: 2 });
    assert.deepEqual([...two.nodes.keys()], [...one.nodes.keys()]);
    for (const [name, { entry, records }] of one.nodes) {
      const other = two.nodes.get(name)!;
      assert.equal(other.entry.numPoints, entry.numPoints, name);
      assert.equal(other.entry.childMask, entry.childMask, name);
      assert.deepEqual(other.records.positions, records.positions, name);
      assert.deepEqual(other.records.rgb, records.rgb, name);
    }
    // The chunks take their room in the file as they finish: another order, the same bytes in all.
    const used = (c: Converted) => [...c.nodes.values()].reduce((sum, { entry }) => sum + entry.byteSize, 0);
    assert.equal(used(two), used(one));
  });
});

describe('convertPointCloud edge cases', () => {
  it('scales 8-bit colours to 16 bits (and says so in the attribute range)', async () => {
    const input = spherePoints(20_000, { eightBit: true, seed: 3 });
    const converted = await convert(new ArrayPointReader(input), 'eight-bit', { maxNodePoints: 2_000 });
    const expected = inputLines(input, converted.file.metadata.offset, converted.file.metadata.scale, 257);
    assert.deepEqual(outputLines(converted), expected);
    const rgb = converted.file.metadata.attributes.find((a) => a.name === 'rgb')!;
    assert.deepEqual(rgb.max, [255 * 257, 255 * 257, 255 * 257]);
    // The viewer's decoder gives the 8-bit values back.
    const file = await OctreeFile.open(path.join(dir, 'eight-bit.bimcloud'));
    const entry = file.entries[0];
    const decoded = await file.nodePoints(entry);
    await file.close();
    const stored = converted.nodes.get(entry.name)!.records.rgb!;
    assert.ok(decoded.count > 100);
    for (let i = 0; i < decoded.count * 3; i++) assert.equal(decoded.colors![i] * 257, stored[i]);
  });

  it('leaves 16-bit colours as they are', async () => {
    const input = spherePoints(5_000, { seed: 4 });
    const converted = await convert(new ArrayPointReader(input), 'sixteen-bit');
    assert.deepEqual(outputLines(converted), inputLines(input, converted.file.metadata.offset, converted.file.metadata.scale, 1));
  });

  it('reads the bounds itself when the file states none, and starts again when the stated ones are wrong', async () => {
    const input = spherePoints(30_000, { seed: 5, center: [100, 200, 300] });
    for (const [name, bounds] of [
      ['no-bounds', null],
      ['wrong-bounds', { min: [99, 199, 299], max: [101, 201, 301] }],
    ] as const) {
      const converted = await convert(new ArrayPointReader(input, { bounds: bounds as PointCloudInfo['bounds'] }), name, { maxNodePoints: 3_000 });
      assert.equal(converted.summary.points, 30_000);
      assert.deepEqual(converted.summary.bounds, boundsOf(input.positions));
      assert.deepEqual(outputLines(converted), inputLines(input, converted.file.metadata.offset, converted.file.metadata.scale, 1));
    }
  });

  it('keeps the file\'s own scale, and 40,000 copies of one point all', async () => {
    const input = spherePoints(10_000, { seed: 6 });
    const copies = spherePoints(40_000, { seed: 6 });
    for (let i = 0; i < 40_000 * 3; i++) copies.positions[i] = input.positions[i % 3];
    const joined: PointArrays = {
      positions: Float64Array.from([...input.positions, ...copies.positions]),
      colors: Uint16Array.from([...input.colors!, ...copies.colors!]),
      intensity: Uint16Array.from([...input.intensity!, ...copies.intensity!]),
      classification: Uint8Array.from([...input.classification!, ...copies.classification!]),
    };
    const converted = await convert(new ArrayPointReader(joined, { scale: [0.01, 0.01, 0.005] }), 'copies', { maxNodePoints: 1_000, maxChunkPoints: 5_000, memoryRuns: 0 });
    assert.deepEqual(converted.file.metadata.scale, [0.005, 0.005, 0.005]);
    assert.equal(converted.summary.points, 50_000);
    assert.deepEqual(outputLines(converted), inputLines(joined, converted.file.metadata.offset, converted.file.metadata.scale, 1));
  });

  it('moves the nodes after head and hierarchy when the room left for them is too small', async () => {
    const input = spherePoints(40_000, { seed: 11 });
    const options = { maxNodePoints: 2_000, maxChunkPoints: 10_000, threads: 1 };
    const roomy = await convert(new ArrayPointReader(input), 'roomy', options);
    const tight = await convert(new ArrayPointReader(input), 'tight', { ...options, headRoom: 100 });
    const { hierarchy, octree } = tight.file.metadata.container;
    assert.equal(octree.offset, hierarchy.offset + hierarchy.size);
    assert.equal(statSync(path.join(dir, 'tight.bimcloud')).size, octree.offset + octree.size);
    assert.deepEqual([...tight.nodes.keys()], [...roomy.nodes.keys()]);
    for (const [name, { records }] of roomy.nodes) assert.deepEqual(tight.nodes.get(name)!.records, records, name);
  });

  it('writes only the attributes the reader has', async () => {
    const { positions } = spherePoints(3_000, { seed: 8 });
    const converted = await convert(new ArrayPointReader({ positions }), 'positions-only');
    assert.deepEqual(converted.file.metadata.attributes.map((a) => a.name), ['position']);
    assert.equal([...converted.nodes.values()].reduce((s, n) => s + n.records.count, 0), 3_000);
  });

  it('refuses a cloud without points, leaving nothing', async () => {
    const scratch = mkdtempSync(path.join(dir, 'scratch-'));
    const out = path.join(dir, 'none.bimcloud');
    await assert.rejects(
      convertPointCloud(new ArrayPointReader({ positions: new Float64Array(0) }), out, { scratchDir: scratch }),
      (e: unknown) => e instanceof PointCloudError && e.reason === 'empty',
    );
    assert.equal(existsSync(out), false);
    assert.deepEqual(readdirSync(scratch), []);
  });

  it('leaves no output and no scratch files when the reader throws mid-way, or when aborted', async () => {
    const input = spherePoints(300_000, { seed: 9 });
    /** A reader whose file turns out truncated after 200,000 points. */
    class Truncated extends ArrayPointReader {
      async *batches(): AsyncIterable<PointBatch> {
        let read = 0;
        for await (const batch of super.batches()) {
          if ((read += batch.count) > 200_000) throw new PointCloudError('truncated', 'The file ends inside its points');
          yield batch;
        }
      }
    }
    const scratch = mkdtempSync(path.join(dir, 'scratch-'));
    const out = path.join(dir, 'truncated.bimcloud');
    await assert.rejects(convertPointCloud(new Truncated(input), out, { scratchDir: scratch, maxChunkPoints: 50_000 }), (e: unknown) => e instanceof PointCloudError && e.reason === 'truncated');
    assert.equal(existsSync(out), false);
    assert.deepEqual(readdirSync(scratch), []);

    // Aborted while indexing (progress past the reading pass), in this thread and in workers.
    for (const threads of [1, 2]) {
      const controller = new AbortController();
      const onProgress = (fraction: number) => fraction > 0.6 && controller.abort(new Error('stopped'));
      await assert.rejects(
        convertPointCloud(new ArrayPointReader(input), out, { scratchDir: scratch, maxChunkPoints: 20_000, signal: controller.signal, onProgress, threads }),
        /stopped/,
      );
      assert.equal(existsSync(out), false);
      assert.deepEqual(readdirSync(scratch), []);
    }
  });

  it('reports progress from 0 to 1, never going back', async () => {
    const seen: number[] = [];
    await convertPointCloud(new ArrayPointReader(spherePoints(100_000, { seed: 10 })), path.join(dir, 'progress.bimcloud'), {
      maxChunkPoints: 20_000,
      onProgress: (f) => seen.push(f),
    });
    assert.ok(seen.length > 5);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `${seen[i - 1]} then ${seen[i]}`);
    assert.equal(seen.at(-1), 1);
  });
});

describe('convertPointCloud on the real scans', () => {
  const folder: string | null = bimPointcloudsFolder();
  if (!folder) {
    it('has no point clouds folder: left out', () => console.log('BIM_POINTCLOUDS folder missing: the real scans are left out'));
    return;
  }
  const files = readdirSync(folder).filter((f: string) => /\.(las|laz|e57)$/i.test(f)).sort();

  it('npm run pointcloud converts a scan and prints a summary, or exits with 1 and the reader\'s message', () => {
    const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/pointcloud.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
    const out = path.join(dir, 'cli.bimcloud');
    const good = cli(path.join(folder, 'simple.las'), out);
    assert.equal(good.status, 0, good.stderr);
    assert.match(good.stdout, /1065 points, \d+ nodes, depth \d+, [\d.]+ s, \d+ points\/s/);
    assert.match(good.stderr, /100%/);
    assert.ok(statSync(out).size > 1065 * 21);
    const bad = cli(path.join(folder, 'bad-crc.e57'), path.join(dir, 'bad.bimcloud'));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /bad-crc.e57: .*(checksum|CRC)/i);
    assert.equal(existsSync(path.join(dir, 'bad.bimcloud')), false);
  });

  for (const name of files) {
    it(`${name}: converts with the reader's count and bounds, or is refused with the reader's error`, async () => {
      const file = path.join(folder, name);
      let reader: PointReader;
      try {
        reader = await openPointFile(file);
      } catch (error) {
        assert.ok(error instanceof PointCloudError, `${name}: ${(error as Error).message}`);
        console.log(`${name}: refused on opening (${error.reason}): ${error.message}`);
        return;
      }
      try {
        // What the reader gives, counted here.
        let points = 0;
        const min = [Infinity, Infinity, Infinity];
        const max = [-Infinity, -Infinity, -Infinity];
        let refused: PointCloudError | null = null;
        try {
          for await (const batch of reader.batches()) {
            for (let i = 0; i < batch.count * 3; i++) {
              min[i % 3] = Math.min(min[i % 3], batch.positions[i]);
              max[i % 3] = Math.max(max[i % 3], batch.positions[i]);
            }
            points += batch.count;
          }
        } catch (error) {
          assert.ok(error instanceof PointCloudError, `${name}: ${(error as Error).message}`);
          refused = error;
        }
        const out = path.join(dir, `${name}.bimcloud`);
        if (refused || points === 0) {
          await assert.rejects(convertPointCloud(reader, out), PointCloudError);
          assert.equal(existsSync(out), false);
          console.log(`${name}: refused (${refused?.reason ?? 'empty'})`);
          return;
        }
        const summary = await convertPointCloud(reader, out, { sourceName: name });
        assert.equal(summary.points, points);
        assert.deepEqual(summary.bounds, { min, max });
        const octree = await OctreeFile.open(out);
        try {
          const { metadata } = octree;
          assert.equal(metadata.points, points);
          assert.equal(octree.entries.reduce((s, e) => s + e.numPoints, 0), points);
          assert.equal(metadata.container.source.format, reader.info.format);
          assert.equal(metadata.projection, reader.info.projection);
          assert.deepEqual(
            metadata.attributes.map((a) => a.name),
            ['position', ...(reader.info.hasIntensity ? ['intensity'] : []), ...(reader.info.hasClassification ? ['classification'] : []), ...(reader.info.hasColor ? ['rgb'] : [])],
          );
          // Every decoded point within half a unit of the scale of the reader's bounds.
          const half = metadata.scale[0] / 2 + 1e-9;
          for (const entry of octree.entries) {
            const { positions, count } = await octree.nodePoints(entry, [0, 0, 0]);
            const { offset } = metadata;
            const records = await octree.nodeRecords(entry);
            for (let i = 0; i < count * 3; i++) {
              const v = offset[i % 3] + records.positions[i] * metadata.scale[i % 3];
              assert.ok(v >= min[i % 3] - half && v <= max[i % 3] + half, `${entry.name}: ${v}`);
            }
            assert.equal(positions.length, count * 3);
          }
          console.log(`${name}: ${points} points, ${summary.nodes} nodes, depth ${summary.depth}`);
        } finally {
          await octree.close();
        }
      } finally {
        await reader.close();
      }
    });
  }
});
