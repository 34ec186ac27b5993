// The sample generator's LAZ writer (samples/laz-writer.js, laz-chunk.js, arithmetic-encoder.js,
// and writeScanLaz in scan-files.js) against decoders it shares nothing with: laz-perf (the
// LASzip library compiled to wasm) decodes every record as written, whole files and each chunk
// alone at the place the chunk table gives; the platform's reader opens the files and reads
// the table; a generated scan as LAZ and as LAS hold the same points, convert to the same
// cloud, and come out the same bytes from one thread or several.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createLazPerf, type LazPerf } from 'laz-perf';
import { buildingText } from '../../../samples/building.js';
import { sampleScan } from '../../../samples/files.js';
import { RECORD_LENGTH } from '../../../samples/laz-chunk.js';
import { LazWriter } from '../../../samples/laz-writer.js';
import { parseScanName, writeScanLas, writeScanLaz } from '../../../samples/scan-files.js';
import { KINDS } from '../../../samples/scan-solids.js';
import { sampleOptions } from '../../../samples/variants.js';
import { FileSource } from '../../pointcloud/byte-source.js';
import { readChunkTable } from '../../pointcloud/las/chunk-table.js';
import { findRecord, HEADER_READ, parseHeader, readVariableRecords } from '../../pointcloud/las/las-header.js';
import { LASZIP_RECORD, LASZIP_USER, parseLaszip } from '../../pointcloud/las/laszip-vlr.js';
import { convertPointCloud } from '../../pointcloud/octree/convert.js';
import { openPointFile, type PointBatch } from '../../pointcloud/point-reader.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'laz-writer-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const house = buildingText(sampleOptions('house')!).truth;
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let lazPerf: Promise<LazPerf> | null = null;
const module = () => (lazPerf ??= createLazPerf());

/** Every record of a LAZ file as laz-perf's whole-file reader (LASZip) decodes it. */
async function decodeFile(file: string) {
  const laz = await module();
  const bytes = readFileSync(file);
  const data = laz._malloc(bytes.length);
  const point = laz._malloc(RECORD_LENGTH);
  const reader = new laz.LASZip();
  try {
    laz.HEAPU8.set(bytes, data);
    reader.open(data, bytes.length);
    const count = reader.getCount();
    const records = new Uint8Array(count * RECORD_LENGTH);
    for (let i = 0; i < count; i++) {
      reader.getPoint(point);
      records.set(laz.HEAPU8.subarray(point, point + RECORD_LENGTH), i * RECORD_LENGTH);
    }
    return { count, format: reader.getPointFormat(), length: reader.getPointLength(), records };
  } finally {
    reader.delete();
    laz._free(point);
    laz._free(data);
  }
}

/** One chunk's records, decoded from its bytes alone with laz-perf's ChunkDecoder. */
async function decodeChunk(bytes: Uint8Array, count: number) {
  const laz = await module();
  const data = laz._malloc(bytes.length + 64);
  const point = laz._malloc(RECORD_LENGTH);
  const decoder = new laz.ChunkDecoder();
  try {
    laz.HEAPU8.set(bytes, data);
    laz.HEAPU8.fill(0, data + bytes.length, data + bytes.length + 64);
    decoder.open(3, RECORD_LENGTH, data);
    const records = new Uint8Array(count * RECORD_LENGTH);
    for (let i = 0; i < count; i++) {
      decoder.getPoint(point);
      records.set(laz.HEAPU8.subarray(point, point + RECORD_LENGTH), i * RECORD_LENGTH);
    }
    return records;
  } finally {
    decoder.delete();
    laz._free(point);
    laz._free(data);
  }
}

/** The first record that differs, or -1. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return Math.floor(i / RECORD_LENGTH);
  return a.length === b.length ? -1 : Math.floor(n / RECORD_LENGTH);
}

/**
 * Point format 3 records that reach every corner of the coders: coordinates that jump
 * between the int32 extremes (steps that wrap) and wander in small steps; intensity 0,
 * 65535 and anything; every return r of n (0-7) with both flags; classes 0-31 with the
 * class flags, and the scans' own classes 2 and 6 with every kind as user data; scan
 * angles; point sources that stay and change; GPS times that stay, step evenly, step by
 * multiples and backwards, jump to new sequences and back to old ones; grey and coloured
 * RGB, 8-bit times 257 as the scans store and full 16-bit.
 */
function trickyRecords(count: number, seed: number) {
  let s = seed >>> 0;
  const random = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)];
  const records = new Uint8Array(count * RECORD_LENGTH);
  const view = new DataView(records.buffer);
  let x = 0, y = 0, z = 0, time = 3e5, step = 1e-5, source = 1;
  for (let i = 0, at = 0; i < count; i++, at += RECORD_LENGTH) {
    const mode = random();
    if (mode < 0.1) [x, y, z] = [pick([-0x80000000, 0x7fffffff, 0, -1]), pick([-0x80000000, 0x7fffffff, 1]), pick([-0x80000000, 0x7fffffff, 0])];
    else if (mode < 0.15) [x, y, z] = [(random() * 2 ** 32) | 0, (random() * 2 ** 32) | 0, (random() * 2 ** 32) | 0];
    else {
      x = (x + Math.round((random() - 0.5) * 40)) | 0;
      y = (y + Math.round((random() - 0.5) * 40)) | 0;
      z = (z + Math.round((random() - 0.5) * 10)) | 0;
    }
    view.setInt32(at, x, true);
    view.setInt32(at + 4, y, true);
    view.setInt32(at + 8, z, true);
    view.setUint16(at + 12, pick([0, 65535, 0, 65535, Math.floor(random() * 65536), 1]), true);
    const scanLike = random() < 0.5;
    records[at + 14] = scanLike ? 0x09 : (i % 64 & 7) | ((i % 64) >> 3 << 3) | (random() < 0.5 ? 0x40 : 0) | (random() < 0.2 ? 0x80 : 0);
    records[at + 15] = scanLike ? pick([2, 6]) : (i % 32) | (random() < 0.1 ? 0xe0 : 0);
    records[at + 16] = random() < 0.8 ? 0 : Math.floor(random() * 256);
    records[at + 17] = scanLike ? Math.floor(random() * KINDS.length) : Math.floor(random() * 256);
    if (random() < 0.02) source = pick([0, 65535, Math.floor(random() * 65536), source + 1]);
    view.setUint16(at + 18, source, true);
    const t = random();
    if (t < 0.4) time += step;
    else if (t < 0.45) time += step * Math.floor(random() * 700);
    else if (t < 0.5) time -= step * Math.floor(random() * 15);
    else if (t < 0.53) time = pick([0, -1e10, 1e300, 3e5, 7e5, 3e5 + 1]);
    else if (t < 0.55) step *= pick([2, 0.5, 1000, 1e-3]);
    if (t > 0.98) {
      // any 64-bit pattern
      view.setUint32(at + 20, Math.floor(random() * 2 ** 32), true);
      view.setUint32(at + 24, Math.floor(random() * 2 ** 32), true);
    } else view.setFloat64(at + 20, time, true);
    const c = random();
    const grey = Math.floor(random() * 256) * 257;
    for (let k = 0; k < 3; k++) {
      const value = c < 0.3 ? grey : c < 0.7 ? Math.floor(random() * 256) * 257 : pick([0, 65535, Math.floor(random() * 65536), grey ^ 0xff]);
      view.setUint16(at + 28 + 2 * k, value, true);
    }
  }
  return records;
}

async function collect(batches: AsyncIterable<PointBatch>) {
  const positions: number[] = [], colors: number[] = [], intensity: number[] = [], classification: number[] = [];
  let count = 0;
  for await (const b of batches) {
    count += b.count;
    for (let i = 0; i < 3 * b.count; i++) positions.push(b.positions[i]);
    for (let i = 0; i < 3 * b.count; i++) colors.push(b.colors ? b.colors[i] : -1);
    for (let i = 0; i < b.count; i++) intensity.push(b.intensity ? b.intensity[i] : -1);
    for (let i = 0; i < b.count; i++) classification.push(b.classification ? b.classification[i] : -1);
  }
  return { count, positions, colors, intensity, classification };
}

describe('LAZ writer', () => {
  const CHUNK = 1000;
  const COUNT = 5 * CHUNK + 337; // five whole chunks and a partial last one
  const records = trickyRecords(COUNT, 20251128);
  const file = path.join(tmp, 'tricky.laz');
  const offset: [number, number, number] = [512000.5, 5403000.25, -12];
  const scale = 0.0005;
  const wkt = 'PROJCS["a made-up system"]';

  /** Written in uneven pieces, so chunks end inside a piece and pieces inside a chunk. */
  function writeTricky(target: string) {
    const laz = new LazWriter(target, { offset, scale, wkt, chunkSize: CHUNK });
    for (let i = 0, n = 1; i < COUNT; i += n, n = (n * 7 + 3) % 1500 + 1) {
      laz.writeRecords(records.slice(i * RECORD_LENGTH, Math.min(COUNT, i + n) * RECORD_LENGTH));
    }
    return laz.close();
  }
  const written = writeTricky(file);

  it('is decoded by laz-perf to exactly the records written, every field of every point', async () => {
    assert.equal(written.points, COUNT);
    assert.equal(written.chunks, 6);
    const decoded = await decodeFile(file);
    assert.equal(decoded.count, COUNT);
    assert.equal(decoded.format, 3);
    assert.equal(decoded.length, RECORD_LENGTH);
    const at = firstDifference(decoded.records, records);
    assert.equal(at, -1, `record ${at} decodes as ${decoded.records.subarray(at * 34, at * 34 + 34).join(',')}, written ${records.subarray(at * 34, at * 34 + 34).join(',')}`);
  });

  it('writes a chunk table the platform reads, each chunk decoding alone where the table puts it', async () => {
    const source = await FileSource.open(file);
    try {
      const header = parseHeader(await source.read(0, HEADER_READ), source.size);
      const vlrs = await readVariableRecords(source, header);
      const record = findRecord(vlrs, LASZIP_USER, LASZIP_RECORD)!;
      assert.ok(record, 'a laszip record');
      const laszip = parseLaszip(await source.read(record.dataOffset, record.dataLength));
      assert.deepEqual(
        { compressor: laszip.compressor, coder: laszip.coder, chunkSize: laszip.chunkSize, items: laszip.items },
        { compressor: 2, coder: 0, chunkSize: CHUNK, items: [{ type: 6, size: 20, version: 2 }, { type: 7, size: 8, version: 2 }, { type: 8, size: 6, version: 2 }] },
      );
      const chunks = await readChunkTable(source, header, laszip);
      assert.deepEqual(chunks.map((c) => c.pointCount), [CHUNK, CHUNK, CHUNK, CHUNK, CHUNK, 337]);
      let at = header.pointOffset + 8;
      const bytes = readFileSync(file);
      const tableOffset = Number(bytes.readBigInt64LE(header.pointOffset));
      for (const [c, chunk] of chunks.entries()) {
        assert.equal(chunk.offset, at, `chunk ${c} follows the one before`);
        at += chunk.byteLength;
        const decoded = await decodeChunk(bytes.subarray(chunk.offset, chunk.offset + chunk.byteLength), chunk.pointCount);
        const expected = records.subarray(c * CHUNK * RECORD_LENGTH, (c * CHUNK + chunk.pointCount) * RECORD_LENGTH);
        assert.equal(firstDifference(decoded, expected), -1, `chunk ${c} decodes alone`);
      }
      assert.equal(at, tableOffset, 'the chunks end where the table begins');
    } finally {
      await source.close();
    }
  });

  it('writes a LAS 1.4 header the platform reads: counts, bounds, scale, offset, projection', async () => {
    const bytes = readFileSync(file);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.deepEqual([bytes[24], bytes[25]], [1, 4]);
    assert.equal(bytes[104], 0x83, 'point format 3, compressed');
    assert.equal(view.getUint16(105, true), 34);
    assert.equal(view.getUint32(107, true), COUNT, 'the legacy count, which format 3 fills');
    assert.equal(view.getBigUint64(247, true), BigInt(COUNT));
    const byReturn = new Array(8).fill(0);
    for (let i = 0; i < COUNT; i++) byReturn[records[i * RECORD_LENGTH + 14] & 7]++;
    for (let r = 1; r <= 5; r++) assert.equal(view.getUint32(111 + 4 * (r - 1), true), byReturn[r], `legacy points of return ${r}`);
    for (let r = 1; r <= 7; r++) assert.equal(view.getBigUint64(255 + 8 * (r - 1), true), BigInt(byReturn[r]), `points of return ${r}`);

    const reader = await openPointFile(file);
    try {
      const { info } = reader;
      assert.equal(info.format, 'laz');
      assert.equal(info.pointCount, COUNT);
      assert.deepEqual(info.scale, [scale, scale, scale]);
      assert.equal(info.projection, wkt);
      assert.ok(info.hasColor);
      const points = await collect(reader.batches());
      assert.equal(points.count, COUNT);
      const rv = new DataView(records.buffer);
      const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < COUNT; i++) {
        const at = i * RECORD_LENGTH;
        for (let k = 0; k < 3; k++) {
          const v = offset[k] + rv.getInt32(at + 4 * k, true) * scale;
          assert.equal(points.positions[3 * i + k], v, `point ${i} coordinate ${k}`);
          min[k] = Math.min(min[k], v);
          max[k] = Math.max(max[k], v);
        }
        assert.equal(points.intensity[i], rv.getUint16(at + 12, true));
        assert.equal(points.classification[i], records[at + 15] & 31);
        for (let k = 0; k < 3; k++) assert.equal(points.colors[3 * i + k], rv.getUint16(at + 28 + 2 * k, true));
      }
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(info.bounds!.min[k] - min[k]) < 1e-6 && Math.abs(info.bounds!.max[k] - max[k]) < 1e-6, `the header's bounds on axis ${k}`);
      }
    } finally {
      await reader.close();
    }
  });

  it('writes the same bytes for the same records, however they come', () => {
    const again = path.join(tmp, 'again.laz');
    const laz = new LazWriter(again, { offset, scale, wkt, chunkSize: CHUNK });
    laz.writeRecords(records);
    laz.close();
    assert.equal(hash(again), hash(file));
  });

  it('refuses coordinates that do not fit 32-bit integers around the offset', () => {
    const laz = new LazWriter(path.join(tmp, 'far.laz'), { offset: [0, 0, 0] });
    assert.throws(() => laz.write({ count: 1, positions: [3e6, 0, 0] }), /too far from the offset/);
    laz.close();
  });
});

describe('LAZ scans (writeScanLaz)', () => {
  it('names LAZ scans', () => {
    assert.deepEqual(parseScanName('office-200k.scan-5m.laz'), { building: 'office-200k', points: 5e6, format: 'laz' });
    assert.deepEqual(parseScanName('house.scan.LAZ'), { building: 'house', points: 1e6, format: 'laz' });
  });

  it('holds the LAS scan\'s points, values and order, decoded by laz-perf and by the platform', async () => {
    const las = path.join(tmp, 'same.las'), laz = path.join(tmp, 'same.laz');
    const options = { points: 120_000, seed: 'same' }; // three chunks, the last partial
    const a = await writeScanLas(las, house, options);
    const b = await writeScanLaz(laz, house, options);
    assert.equal(b.points, 120_000);
    assert.equal(b.chunks, 3);
    assert.deepEqual([b.min, b.max], [a.min, a.max], 'the same bounds in the header');

    // laz-perf's records against the LAS records, field by field (format 7 and 3 lay them out apart).
    const decoded = await decodeFile(laz);
    assert.equal(decoded.count, 120_000);
    const lasBytes = readFileSync(las);
    const lv = new DataView(lasBytes.buffer, lasBytes.byteOffset, lasBytes.byteLength);
    const zv = new DataView(decoded.records.buffer);
    const start = lv.getUint32(96, true);
    for (let i = 0; i < 120_000; i++) {
      const l = start + 36 * i, z = 34 * i;
      for (let k = 0; k < 3; k++) assert.equal(zv.getInt32(z + 4 * k, true), lv.getInt32(l + 4 * k, true), `point ${i} coordinate ${k}`);
      assert.equal(zv.getUint16(z + 12, true), lv.getUint16(l + 12, true), `point ${i} intensity`);
      assert.equal(decoded.records[z + 14], 0x09, 'return 1 of 1');
      assert.equal(decoded.records[z + 15], lasBytes[l + 16], `point ${i} class`);
      assert.equal(decoded.records[z + 17], lasBytes[l + 17], `point ${i} user data (kind)`);
      assert.equal(zv.getUint16(z + 18, true), lv.getUint16(l + 20, true), `point ${i} point source`);
      assert.equal(zv.getFloat64(z + 20, true), lv.getFloat64(l + 22, true), `point ${i} GPS time`);
      for (let c = 0; c < 3; c++) assert.equal(zv.getUint16(z + 28 + 2 * c, true), lv.getUint16(l + 30 + 2 * c, true), `point ${i} colour ${c}`);
    }

    // The platform's readers: the same points within the scale (the same integers: exactly).
    const lasReader = await openPointFile(las);
    const lazReader = await openPointFile(laz);
    try {
      assert.equal(lazReader.info.format, 'laz');
      assert.deepEqual(lazReader.info.bounds, lasReader.info.bounds);
      const p = await collect(lasReader.batches());
      const q = await collect(lazReader.batches());
      assert.equal(q.count, p.count);
      let worst = 0;
      for (let i = 0; i < 3 * p.count; i++) worst = Math.max(worst, Math.abs(p.positions[i] - q.positions[i]));
      assert.ok(worst <= 0.001, `LAS and LAZ points ${worst} m apart at most`);
      assert.equal(worst, 0, 'the same integers of the same scale');
      assert.deepEqual(q.colors, p.colors);
      assert.deepEqual(q.intensity, p.intensity);
      assert.deepEqual(q.classification, p.classification);
    } finally {
      await lasReader.close();
      await lazReader.close();
    }
  });

  it('writes the same bytes in one thread or several, whether chunks span scans or line up with them', async () => {
    // 60,000 points in ten scans of 6,000: chunks of 4,000 lie inside scans and span two
    // (a scan's head and tail go to the main thread), chunks of 6,000 line up with the
    // scans, 50,000 (the default) span nine.
    for (const chunkSize of [4000, 6000, 50_000]) {
      const one = path.join(tmp, `one-${chunkSize}.laz`), three = path.join(tmp, `three-${chunkSize}.laz`);
      await writeScanLaz(one, house, { points: 60_000, seed: 'one', chunkSize, workers: 1 });
      const r = await writeScanLaz(three, house, { points: 60_000, seed: 'one', chunkSize, workers: 3 });
      assert.equal(r.chunks, Math.ceil(60_000 / chunkSize));
      assert.equal(hash(three), hash(one), `three worker threads write what one does (chunks of ${chunkSize})`);
      const decoded = await decodeFile(three);
      assert.equal(decoded.count, 60_000);
    }
    const other = path.join(tmp, 'other.laz');
    await writeScanLaz(other, house, { points: 60_000, seed: 'two', chunkSize: 4000, workers: 1 });
    assert.notEqual(hash(other), hash(path.join(tmp, 'one-4000.laz')));
    // And the threads' file decodes to the single thread's records, not only to as many.
    const [x, y] = [await decodeFile(path.join(tmp, 'three-4000.laz')), await decodeFile(path.join(tmp, 'one-4000.laz'))];
    assert.equal(firstDifference(x.records, y.records), -1);
  });

  it('converts (sampleScan, convertPointCloud) to the LAS scan\'s point count and bounds', async () => {
    const dir = path.join(tmp, 'cache');
    const laz = await sampleScan('house.scan-150k.laz', { dir });
    const las = await sampleScan('house.scan-150k.las', { dir });
    assert.equal(path.dirname(laz), path.dirname(las), 'beside the building in the cache');
    const convert = async (input: string) => {
      const reader = await openPointFile(input);
      try {
        assert.equal(reader.info.format, path.extname(input).slice(1), `${path.basename(input)} is what its name says`);
        return await convertPointCloud(reader, `${input}.bimcloud`, { scratchDir: tmp });
      } finally {
        await reader.close();
      }
    };
    const fromLaz = await convert(laz);
    const fromLas = await convert(las);
    assert.equal(fromLaz.points, 150_000);
    assert.equal(fromLaz.points, fromLas.points);
    assert.deepEqual(fromLaz.bounds, fromLas.bounds);
    assert.equal(fromLaz.nodes, fromLas.nodes, 'the same points make the same tree');
  });
});
