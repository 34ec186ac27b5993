import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Copc } from 'copc';
import { bimPointcloudsFolder, bimPointcloudsSetting } from '../../../scripts/bim-models.mjs';
import { MemorySource } from '../../pointcloud/byte-source.js';
import { openPointFile, openPointSource, PointCloudError, type PointBatch, type PointReader } from '../../pointcloud/point-reader.js';
import { BATCH_POINTS, openLas } from '../../pointcloud/las/las-reader.js';
import { readChunkTable } from '../../pointcloud/las/chunk-table.js';
import { findRecord, HEADER_READ, parseHeader, readVariableRecords } from '../../pointcloud/las/las-header.js';
import { LASZIP_RECORD, LASZIP_USER, parseLaszip } from '../../pointcloud/las/laszip-vlr.js';
import { seededRandom } from '../seeded-random.js';

/**
 * The LAS/LAZ reader: on the real files of the point clouds folder (what their headers and
 * MANIFEST.tsv state, simple.las against its LAZ and COPC copies, COPC against the copc
 * package's own decoding), and on files this test writes byte by byte (every point
 * format, extra bytes, counts past 2^32, files cut short, empty, unknown formats, noise).
 */

interface Points {
  count: number;
  positions: number[];
  colors: number[] | null;
  intensity: number[];
  classification: number[];
  batches: number[];
}

/** All points of one pass, copied out of the (reused) batch arrays. */
async function readAll(reader: PointReader): Promise<Points> {
  const all: Points = { count: 0, positions: [], colors: reader.info.hasColor ? [] : null, intensity: [], classification: [], batches: [] };
  for await (const batch of reader.batches()) collect(all, batch);
  return all;
}

function collect(all: Points, batch: PointBatch) {
  assert.equal(batch.positions.length, batch.count * 3);
  all.count += batch.count;
  all.batches.push(batch.count);
  for (let i = 0; i < batch.count * 3; i++) all.positions.push(batch.positions[i]);
  if (all.colors) {
    assert.ok(batch.colors, 'a reader with colour gives colours in each batch');
    for (let i = 0; i < batch.count * 3; i++) all.colors.push(batch.colors[i]);
  }
  for (let i = 0; i < batch.count; i++) {
    all.intensity.push(batch.intensity![i]);
    all.classification.push(batch.classification![i]);
  }
}

async function rejection(promise: Promise<unknown>): Promise<PointCloudError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PointCloudError, `a PointCloudError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected the read to fail');
}

async function drain(reader: PointReader) {
  let n = 0;
  for await (const batch of reader.batches()) n += batch.count;
  return n;
}

// ---- Files written here, byte by byte after the LAS specification ----

interface GenPoint {
  x: number;
  y: number;
  z: number;
  intensity: number;
  classification: number;
  rgb?: [number, number, number];
}

const BASE = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67];
const RGB_AT: Record<number, number> = { 2: 20, 3: 28, 5: 28, 7: 30, 8: 30, 10: 30 };

interface LasOptions {
  minor?: number;
  format?: number;
  recordLength?: number;
  /** The count the header states, when not the points written. */
  stated?: number;
  scale?: number;
  offset?: [number, number, number];
}

function lasFile(points: GenPoint[], options: LasOptions = {}): Uint8Array {
  const minor = options.minor ?? 2;
  const format = options.format ?? 0;
  const recordLength = options.recordLength ?? BASE[format];
  const headerSize = minor === 4 ? 375 : minor === 3 ? 235 : 227;
  const scale = options.scale ?? 0.001;
  const offset = options.offset ?? [1000, 2000, 0];
  const stated = options.stated ?? points.length;
  const bytes = new Uint8Array(headerSize + points.length * recordLength);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('LASF'), 0);
  bytes[24] = 1;
  bytes[25] = minor;
  view.setUint16(94, headerSize, true);
  view.setUint32(96, headerSize, true);
  bytes[104] = format;
  view.setUint16(105, recordLength, true);
  const legacy = format < 6 && stated < 2 ** 32 ? stated : 0;
  view.setUint32(107, legacy, true);
  for (let a = 0; a < 3; a++) {
    view.setFloat64(131 + a * 8, scale, true);
    view.setFloat64(155 + a * 8, offset[a], true);
    const values = points.map((p) => [p.x, p.y, p.z][a]);
    view.setFloat64(179 + a * 16, values.reduce((m, v) => Math.max(m, v), 0), true);
    view.setFloat64(187 + a * 16, values.reduce((m, v) => Math.min(m, v), values[0] ?? 0), true);
  }
  if (minor === 4) view.setBigUint64(247, BigInt(stated), true);
  points.forEach((p, i) => {
    const at = headerSize + i * recordLength;
    view.setInt32(at, Math.round((p.x - offset[0]) / scale), true);
    view.setInt32(at + 4, Math.round((p.y - offset[1]) / scale), true);
    view.setInt32(at + 8, Math.round((p.z - offset[2]) / scale), true);
    view.setUint16(at + 12, p.intensity, true);
    // Formats 0-5: class in the low 5 bits of byte 15, flags above (set, to be masked off).
    if (format < 6) bytes[at + 15] = p.classification | 0xe0;
    else bytes[at + 16] = p.classification;
    if (p.rgb && RGB_AT[format] !== undefined) p.rgb.forEach((c, k) => view.setUint16(at + RGB_AT[format] + k * 2, c, true));
    // Extra bytes past the format's own: noise the reader must skip.
    for (let e = BASE[format]; e < recordLength; e++) bytes[at + e] = 0xa5;
  });
  return bytes;
}

function genPoints(n: number, seed = 1): GenPoint[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    x: 1000 + Math.round(random() * 1e6) / 1000,
    y: 2000 - Math.round(random() * 1e6) / 1000,
    z: Math.round(random() * 2e5) / 1000 - 100,
    intensity: Math.floor(random() * 65536),
    classification: i % 32,
    rgb: [Math.floor(random() * 65536), Math.floor(random() * 65536), Math.floor(random() * 65536)],
  }));
}

function assertPoints(read: Points, points: GenPoint[], format: number) {
  assert.equal(read.count, points.length);
  points.forEach((p, i) => {
    assert.ok(Math.abs(read.positions[i * 3] - p.x) < 1e-6, `x of point ${i}: ${read.positions[i * 3]} vs ${p.x}`);
    assert.ok(Math.abs(read.positions[i * 3 + 1] - p.y) < 1e-6, `y of point ${i}`);
    assert.ok(Math.abs(read.positions[i * 3 + 2] - p.z) < 1e-6, `z of point ${i}`);
    assert.equal(read.intensity[i], p.intensity);
    assert.equal(read.classification[i], format < 6 ? p.classification & 0x1f : p.classification);
    if (RGB_AT[format] !== undefined) assert.deepEqual(read.colors!.slice(i * 3, i * 3 + 3), p.rgb);
  });
  if (RGB_AT[format] === undefined) assert.equal(read.colors, null);
}

describe('LAS reader on generated files', () => {
  for (let format = 0; format <= 10; format++) {
    it(`point format ${format}: positions, intensity, class${RGB_AT[format] !== undefined ? ', RGB' : ''}`, async () => {
      const points = genPoints(40, format + 1).map((p) => ({ ...p, classification: format < 6 ? p.classification : 100 + p.classification }));
      const reader = await openPointSource(new MemorySource(lasFile(points, { format, minor: format >= 6 ? 4 : 2 })));
      assert.equal(reader.info.format, 'las');
      assert.equal(reader.info.pointCount, 40);
      assert.equal(reader.info.hasColor, RGB_AT[format] !== undefined);
      assertPoints(await readAll(reader), points, format);
    });
  }

  it('reads format 0 records with extra bytes after the format\'s own', async () => {
    const points = genPoints(7, 42);
    const reader = await openPointSource(new MemorySource(lasFile(points, { format: 0, recordLength: 20 + 7 })));
    assertPoints(await readAll(reader), points, 0);
  });

  it('gives batches of 65,536 points, and reads from the start on a second pass', async () => {
    const points = genPoints(BATCH_POINTS * 2 + 1000, 7);
    const reader = await openPointSource(new MemorySource(lasFile(points, { format: 3, minor: 3 })));
    const first = await readAll(reader);
    assert.deepEqual(first.batches, [BATCH_POINTS, BATCH_POINTS, 1000]);
    assertPoints(first, points, 3);
    const second = await readAll(reader);
    assert.deepEqual(second.positions, first.positions);
    assert.deepEqual(second.colors, first.colors);
  });

  it('counts a LAS 1.4 header\'s 64-bit point count exactly, and fails truncated when the points are not there', async () => {
    const reader = await openPointSource(new MemorySource(lasFile(genPoints(3), { format: 6, minor: 4, stated: 5_000_000_000 })));
    assert.equal(reader.info.pointCount, 5_000_000_000);
    const error = await rejection(drain(reader));
    assert.equal(error.reason, 'truncated');
    assert.match(error.message, /3 of the 5000000000 points/);
  });

  it('fails truncated, saying how many points were there, when a file ends inside a record', async () => {
    const bytes = lasFile(genPoints(10), { format: 1 });
    const cut = bytes.subarray(0, 227 + 28 * 5 + 13);
    const reader = await openPointSource(new MemorySource(cut));
    assert.equal(reader.info.pointCount, 10);
    const error = await rejection(drain(reader));
    assert.equal(error.reason, 'truncated');
    assert.match(error.message, /5 of the 10 points/);
  });

  it('fails truncated when a file ends inside its header', async () => {
    const error = await rejection(openPointSource(new MemorySource(lasFile(genPoints(2)).subarray(0, 200))));
    assert.equal(error.reason, 'truncated');
  });

  it('refuses a file of 0 points as empty', async () => {
    assert.equal((await rejection(openPointSource(new MemorySource(lasFile([]))))).reason, 'empty');
    assert.equal((await rejection(openPointSource(new MemorySource(lasFile([], { minor: 4, format: 6 }))))).reason, 'empty');
  });

  it('refuses point format 11 and LAS 1.5 as unsupported', async () => {
    const bytes = lasFile(genPoints(2), { format: 0 });
    bytes[104] = 11;
    const format = await rejection(openPointSource(new MemorySource(bytes)));
    assert.equal(format.reason, 'unsupported');
    assert.match(format.message, /format 11/);
    const version = lasFile(genPoints(2));
    version[25] = 5;
    assert.equal((await rejection(openPointSource(new MemorySource(version)))).reason, 'unsupported');
  });

  it('refuses headers that contradict themselves as malformed', async () => {
    const short = lasFile(genPoints(2), { format: 3 });
    new DataView(short.buffer).setUint16(105, 30, true);
    assert.equal((await rejection(openPointSource(new MemorySource(short)))).reason, 'malformed');
    const far = lasFile(genPoints(2));
    new DataView(far.buffer).setUint32(96, far.length + 10, true);
    assert.equal((await rejection(openPointSource(new MemorySource(far)))).reason, 'malformed');
  });

  it('reads or refuses random bytes after "LASF" with a PointCloudError, never crashing or hanging', async () => {
    const random = seededRandom(2112);
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      const bytes = new Uint8Array(4 + Math.floor(random() * 3000));
      for (let k = 0; k < bytes.length; k++) bytes[k] = Math.floor(random() * 256);
      bytes.set([0x4c, 0x41, 0x53, 0x46]);
      const view = new DataView(bytes.buffer);
      // Half the files get a plausible version, header size and point layout, to go past the first checks.
      if (i % 2 && bytes.length > 375) {
        bytes[24] = 1;
        bytes[25] = i % 5;
        view.setUint16(94, [227, 227, 227, 235, 375][i % 5], true);
        view.setUint32(96, 375 + Math.floor(random() * (bytes.length - 375)), true);
        view.setUint32(100, Math.floor(random() * 4), true);
        bytes[104] = (i % 4 === 1 ? 0x80 : 0) | [0, 1, 2, 3, 6, 7, 8][Math.floor(random() * 7)];
        view.setUint16(105, BASE[bytes[104] & 0x3f] + (i % 3), true);
        view.setUint32(107, Math.floor(random() * 200), true);
        for (let a = 0; a < 6; a++) view.setFloat64(131 + a * 8, a < 3 ? 0.01 : 0, true);
      }
      try {
        const reader = await openPointSource(new MemorySource(bytes));
        assert.equal(await drain(reader), reader.info.pointCount);
      } catch (error) {
        assert.ok(error instanceof PointCloudError, `file ${i}: ${String(error)}`);
        assert.ok(error.message.length > 10);
        refused++;
      }
    }
    assert.ok(refused > 300, `most noise is refused (${refused} of 400)`);
  });
});

// ---- The real files of the point clouds folder ----

const folder = bimPointcloudsFolder();
if (!folder) {
  console.log(`LAS reader: real files left out, no point clouds folder at ${bimPointcloudsSetting()} (set BIM_POINTCLOUDS)`);
} else {
  const manifest = readManifest(folder);
  const lasFiles = readdirSync(folder).filter((f) => /\.(las|laz)$/i.test(f)).sort();
  const file = (name: string) => path.join(folder, name);
  const readFile = async (name: string) => {
    const reader = await openPointFile(file(name));
    try {
      return { info: reader.info, points: await readAll(reader) };
    } finally {
      await reader.close();
    }
  };

  describe('LAS reader on the real files', () => {
    for (const name of lasFiles) {
      it(`${name}: yields the points its header and MANIFEST.tsv state, inside its stated bounds`, async () => {
        const reader = await openPointFile(file(name));
        try {
          const { info } = reader;
          assert.equal(info.format, name.toLowerCase().endsWith('.laz') ? 'laz' : 'las');
          const stated = manifestCount(manifest.get(name));
          if (stated !== null) assert.equal(info.pointCount, stated, 'the count MANIFEST.tsv states');
          assert.ok(info.bounds && info.scale);
          const [min, max] = [info.bounds.min, info.bounds.max];
          let count = 0;
          let outside = 0;
          for await (const batch of reader.batches()) {
            for (let i = 0; i < batch.count; i++) {
              for (let a = 0; a < 3; a++) {
                const v = batch.positions[i * 3 + a];
                const slack = info.scale[a] / 2;
                if (!(v >= min[a] - slack && v <= max[a] + slack)) outside++;
              }
            }
            count += batch.count;
          }
          assert.equal(count, info.pointCount, 'every point the header states');
          assert.equal(outside, 0, 'coordinates outside the stated bounds');
          // A second pass reads them all again.
          assert.equal(await drain(reader), info.pointCount);
        } finally {
          await reader.close();
        }
      });
    }

    it('simple.las and simple.laz give the same points, colours, intensities and classes', async () => {
      const las = await readFile('simple.las');
      const laz = await readFile('simple.laz');
      assert.equal(las.points.count, 1065);
      assert.deepEqual(laz.points.positions, las.points.positions);
      assert.deepEqual(laz.points.colors, las.points.colors);
      assert.deepEqual(laz.points.intensity, las.points.intensity);
      assert.deepEqual(laz.points.classification, las.points.classification);
    });

    it('simple.copc.laz holds the points of simple.las, in its octree\'s order', async () => {
      const las = await readFile('simple.las');
      const copc = await readFile('simple.copc.laz');
      const key = (p: Points, i: number) => [0, 1, 2].map((a) => p.positions[i * 3 + a].toFixed(3)).join(' ') + ' ' + p.colors!.slice(i * 3, i * 3 + 3).join(' ') + ' ' + p.classification[i];
      const keys = (p: Points) => Array.from({ length: p.count }, (_, i) => key(p, i)).sort();
      assert.deepEqual(keys(copc.points), keys(las.points));
    });

    it('simple.las has the classes 1 and 2 its MANIFEST names, and colour', async () => {
      assert.match(manifest.get('simple.las') ?? '', /classes 1\/2/);
      const { info, points } = await readFile('simple.las');
      assert.deepEqual([...new Set(points.classification)].sort(), [1, 2]);
      assert.ok(info.hasColor);
      assert.ok(points.colors!.some((c) => c > 0));
    });

    it('pdrf8 has colour, pdrf6 has none', async () => {
      const six = await readFile('pdrf6-1.4.laz');
      const eight = await readFile('pdrf8-1.4.laz');
      assert.equal(six.info.hasColor, false);
      assert.equal(six.points.colors, null);
      assert.equal(eight.info.hasColor, true);
      assert.ok(eight.points.colors!.some((c) => c > 0));
    });

    it('ellipsoid.copc.laz: 100,000 points at EPSG:3857 coordinates, the same as the copc package decodes', async () => {
      const { info, points } = await readFile('ellipsoid.copc.laz');
      assert.equal(points.count, 100_000);
      assert.match(info.projection, /Pseudo-Mercator/);
      assert.match(info.projection, /"EPSG","3857"/);
      for (let i = 0; i < points.count; i++) {
        // Web Mercator metres: millions from the origin, within the projection's square.
        assert.ok(Math.abs(points.positions[i * 3]) > 1e6 && Math.abs(points.positions[i * 3]) < 20037509);
        assert.ok(Math.abs(points.positions[i * 3 + 1]) > 1e6 && Math.abs(points.positions[i * 3 + 1]) < 20037509);
      }
      assert.deepEqual(await copcPositions(file('ellipsoid.copc.laz')), points.positions);
    });

    it('decodes LAZ in threads of their own to the same points in the same order, stops them when a pass ends early, and reports damage from them', async () => {
      for (const name of ['ellipsoid.copc.laz', 'simple.laz', 'pdrf6-1.4.laz', 'simple.copc.laz']) {
        const bytes = new Uint8Array(readFileSync(file(name)));
        const here = await readAll(await openLas(new MemorySource(bytes), { decodeThreads: 0 }));
        for (const threads of [1, 3]) {
          const threaded = await openLas(new MemorySource(bytes), { decodeThreads: threads });
          const there = await readAll(threaded);
          const what = `${name} in ${threads} threads`;
          assert.equal(there.count, threaded.info.pointCount, what);
          assert.deepEqual(there.batches, here.batches, what);
          assert.deepEqual(there.positions, here.positions, what);
          assert.deepEqual(there.colors, here.colors, what);
          assert.deepEqual(there.intensity, here.intensity, what);
          assert.deepEqual(there.classification, here.classification, what);
        }
      }
      const reader = await openLas(new MemorySource(new Uint8Array(readFileSync(file('ellipsoid.copc.laz')))), { decodeThreads: 2 });
      for await (const batch of reader.batches()) {
        assert.equal(batch.count, BATCH_POINTS);
        break;
      }
      assert.equal(await drain(reader), 100_000, 'a new pass after one left early');
      // A damaged layer size in a chunk: the refusal comes from its thread, the first's or the second's.
      const copc = new Uint8Array(readFileSync(file('simple.copc.laz')));
      const starts = await chunkStarts(copc);
      for (const chunk of [1, 2]) {
        const damaged = copc.slice();
        const start = starts[chunk - 1];
        damaged.fill(0xff, start + 36 + 4, start + 36 + 8);
        const error = await rejection(openLas(new MemorySource(damaged), { decodeThreads: 2 }).then(drain));
        assert.equal(error.reason, 'malformed');
        assert.match(error.message, new RegExp(`LAZ chunk ${chunk} of 65 .* could not be decoded`));
      }
    });

    it('projections: GeoTIFF keys as EPSG codes, WKT as it is, none as \'\'', async () => {
      // simple1_4.las has GeographicTypeGeoKey 4326 and (with the WKT bit clear) a WKT EVLR too.
      assert.equal((await readFile('simple1_4.las')).info.projection, 'EPSG:4326');
      assert.match((await readFile('simple.copc.laz')).info.projection, /^COMPD_CS\["NAD83 \/ Oregon/);
      assert.equal((await readFile('simple.las')).info.projection, '');
    });

    it('refuses LAZ compressions laz-perf does not take as unsupported', async () => {
      const original = new Uint8Array(readFileSync(file('simple.laz')));
      const view = new DataView(original.buffer);
      // simple.laz's one VLR, the laszip record, follows its 227-byte header; its data after the VLR's 54-byte head.
      assert.equal(new TextDecoder().decode(original.subarray(227 + 2, 227 + 16)), 'laszip encoded');
      const data = 227 + 54;
      const pointwise = original.slice();
      new DataView(pointwise.buffer).setUint16(data, 1, true);
      const unchunked = await rejection(openPointSource(new MemorySource(pointwise)));
      assert.equal(unchunked.reason, 'unsupported');
      assert.match(unchunked.message, /pointwise without chunks/);
      const oldItems = original.slice();
      new DataView(oldItems.buffer).setUint16(data + 34 + 4, 1, true);
      assert.equal((await rejection(openPointSource(new MemorySource(oldItems)))).reason, 'unsupported');
      const waveform = original.slice();
      waveform[104] = 0x80 | 5;
      new DataView(waveform.buffer).setUint16(105, 63, true);
      assert.equal((await rejection(openPointSource(new MemorySource(waveform)))).reason, 'unsupported');
      assert.equal(view.getUint16(data, true), 2, 'the original is pointwise chunked');
    });

    it('a LAZ file cut short fails truncated; damaged compressed bytes fail with a PointCloudError or decode, never crash', async () => {
      const laz = new Uint8Array(readFileSync(file('simple.laz')));
      const cut = await openPointSource(new MemorySource(laz.subarray(0, laz.length >> 1)));
      assert.equal(cut.info.pointCount, 1065);
      assert.equal((await rejection(drain(cut))).reason, 'truncated');
      const random = seededRandom(99);
      for (const name of ['simple.laz', 'pdrf8-1.4.laz', 'simple.copc.laz']) {
        const original = new Uint8Array(readFileSync(file(name)));
        const pointOffset = new DataView(original.buffer).getUint32(96, true);
        for (let i = 0; i < 6; i++) {
          const bytes = original.slice();
          for (let k = 0; k < 30; k++) bytes[pointOffset + 8 + Math.floor(random() * (bytes.length - pointOffset - 8))] = Math.floor(random() * 256);
          try {
            const reader = await openPointSource(new MemorySource(bytes));
            await drain(reader);
          } catch (error) {
            assert.ok(error instanceof PointCloudError, `${name} damaged (${i}): ${String(error)}`);
          }
        }
        // Noise in the chunk table itself: refused, or (by chance) a table that still adds up.
        const table = Number(new DataView(original.buffer).getBigInt64(pointOffset, true));
        for (let i = 0; i < 20; i++) {
          const bytes = original.slice();
          for (let k = table + 8; k < bytes.length; k++) bytes[k] = Math.floor(random() * 256);
          try {
            const reader = await openPointSource(new MemorySource(bytes));
            assert.equal(await drain(reader), reader.info.pointCount);
          } catch (error) {
            assert.ok(error instanceof PointCloudError, `${name} with a noisy chunk table (${i}): ${String(error)}`);
          }
        }
        // The reader still decodes good files after bad ones.
        assert.equal(await drain(await openPointSource(new MemorySource(original))), 'simple.laz' === name ? 1065 : name === 'pdrf8-1.4.laz' ? 1024 : 1065);
      }
    });
  });
}

/** filename -> contents column of MANIFEST.tsv. */
function readManifest(folder: string): Map<string, string> {
  const rows = new Map<string, string>();
  const manifestFile = path.join(folder, 'MANIFEST.tsv');
  if (!existsSync(manifestFile)) return rows;
  const [header, ...lines] = readFileSync(manifestFile, 'utf8').split(/\r?\n/).filter((l) => l.trim());
  const columns = header.split('\t');
  for (const line of lines) {
    const cells = line.split('\t');
    rows.set(cells[columns.indexOf('filename')], cells[columns.indexOf('contents')] ?? '');
  }
  return rows;
}

/** "1,065 points", "100,000 synthetic points" -> the number; null when the row states none. */
function manifestCount(contents: string | undefined): number | null {
  const match = contents?.match(/([\d,]+)(?: [a-z]+)? points/);
  return match ? Number(match[1].replaceAll(',', '')) : null;
}

/** Where each chunk of a LAZ file starts, from its chunk table. */
async function chunkStarts(bytes: Uint8Array): Promise<number[]> {
  const source = new MemorySource(bytes);
  const header = parseHeader(await source.read(0, HEADER_READ), source.size);
  const record = findRecord(await readVariableRecords(source, header), LASZIP_USER, LASZIP_RECORD)!;
  const laszip = parseLaszip(await source.read(record.dataOffset, record.dataLength));
  return (await readChunkTable(source, header, laszip)).map((chunk) => chunk.offset);
}

/** A COPC file's positions as the copc package decodes them, its nodes in file order. */
async function copcPositions(name: string): Promise<number[]> {
  const bytes = readFileSync(name);
  const get = async (begin: number, end: number) => new Uint8Array(bytes.buffer, bytes.byteOffset + begin, end - begin);
  const copc = await Copc.create(get);
  const page = await Copc.loadHierarchyPage(get, copc.info.rootHierarchyPage);
  const nodes = Object.values(page.nodes).flatMap((n) => (n && n.pointCount > 0 ? [n] : [])).sort((a, b) => a.pointDataOffset - b.pointDataOffset);
  const { scale, offset, pointDataRecordLength } = copc.header;
  const positions: number[] = [];
  for (const node of nodes) {
    const records = await Copc.loadPointDataBuffer(get, copc.header, node);
    const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
    for (let i = 0; i < node.pointCount; i++) {
      for (let a = 0; a < 3; a++) positions.push(view.getInt32(i * pointDataRecordLength + a * 4, true) * scale[a] + offset[a]);
    }
  }
  return positions;
}
