import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bimPointcloudsFolder } from '../../../scripts/bim-models.mjs';
import { crc32c, writeE57 } from '../../../samples/e57-writer.js';
import { MemorySource } from '../../pointcloud/byte-source.js';
import { openPointFile, openPointSource, PointCloudError, type PointReader } from '../../pointcloud/point-reader.js';
import { BitPackDecoder } from '../../pointcloud/e57/bit-pack.js';
import { PacketStream } from '../../pointcloud/e57/compressed-vector.js';
import { parseE57Xml } from '../../pointcloud/e57/e57-xml.js';
import { PagedFile, toLogical } from '../../pointcloud/e57/pages.js';

/** Everything a reader gives, in plain arrays. */
async function readAll(reader: PointReader) {
  const positions: number[] = [];
  const colors: number[] = [];
  const intensity: number[] = [];
  let batches = 0;
  for await (const batch of reader.batches()) {
    batches++;
    assert.equal(batch.positions.length, batch.count * 3);
    for (const v of batch.positions) positions.push(v);
    if (batch.colors) for (const v of batch.colors) colors.push(v);
    if (batch.intensity) for (const v of batch.intensity) intensity.push(v);
  }
  return { count: positions.length / 3, positions, colors, intensity, batches };
}

async function refusal(action: () => Promise<unknown>): Promise<PointCloudError> {
  try {
    await action();
  } catch (error) {
    assert.ok(error instanceof PointCloudError, `expected a PointCloudError, got ${error}`);
    return error;
  }
  assert.fail('expected the file to be refused');
}

async function readFile(file: string) {
  const reader = await openPointFile(file);
  try {
    return { info: reader.info, ...(await readAll(reader)) };
  } finally {
    await reader.close();
  }
}

/** Recomputes every page's CRC-32C (after a test changed bytes on purpose). */
function fixChecksums(bytes: Uint8Array) {
  for (let p = 0; p + 1024 <= bytes.length; p += 1024) new DataView(bytes.buffer, bytes.byteOffset).setUint32(p + 1020, crc32c(bytes, p, p + 1020), false);
}

function* columns(count: number, make: (i: number) => Record<string, number>, batch = 7000) {
  for (let start = 0; start < count; start += batch) {
    const n = Math.min(batch, count - start);
    const out: Record<string, number[]> = {};
    for (let i = 0; i < n; i++) for (const [key, value] of Object.entries(make(start + i))) (out[key] ??= []).push(value);
    yield out;
  }
}

describe('E57 reader: the real scans', () => {
  const folder: string | null = bimPointcloudsFolder();
  if (!folder) {
    console.log('# E57 reader: no point clouds folder (BIM_POINTCLOUDS), the real scans are left out');
    return;
  }
  const manifest = new Map(
    readFileSync(path.join(folder, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .map((cols) => [cols[0], cols[4]] as const),
  );
  /** "30,571 points" in the manifest's contents column. */
  const statedCount = (file: string) => {
    const match = /([\d,]+) points/.exec(manifest.get(file) ?? '');
    return match ? Number(match[1].replaceAll(',', '')) : null;
  };

  it('reads every readable E57 file in the folder with its stated count, inside its bounds', async () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.e57') && !['bad-crc.e57', 'empty.e57', 'ZeroPoints.e57'].includes(f));
    assert.ok(files.length >= 6, `E57 files found: ${files.join(', ')}`);
    for (const file of files) {
      const read = await readFile(path.join(folder, file));
      assert.equal(read.info.format, 'e57');
      assert.ok(read.count > 0, file);
      const stated = statedCount(file);
      if (stated !== null) assert.equal(read.info.pointCount, stated, `${file} point count`);
      assert.ok(read.count <= read.info.pointCount, file);
      for (const v of read.positions) assert.ok(Number.isFinite(v), file);
      if (read.info.bounds) {
        const { min, max } = read.info.bounds;
        // Bounds are written as doubles around single-precision values: a float's step of slack.
        const slack = (k: number) => 1e-6 * Math.max(1, Math.abs(min[k]), Math.abs(max[k]));
        for (let i = 0; i < read.positions.length; i++) {
          const k = i % 3;
          assert.ok(read.positions[i] >= min[k] - slack(k) && read.positions[i] <= max[k] + slack(k), `${file}: point ${Math.floor(i / 3)} axis ${k} ${read.positions[i]} outside ${min[k]}..${max[k]}`);
        }
      }
    }
  });

  it('bunnyInt32: 30,571 scaled-integer records whose streams straddle packets, all valid', async () => {
    const read = await readFile(path.join(folder, 'bunnyInt32.e57'));
    assert.equal(read.info.pointCount, 30571);
    // The valid records, counted from the invalid-state bytestream itself.
    const bytes = readFileSync(path.join(folder, 'bunnyInt32.e57'));
    const [scan] = parseE57Xml(readXml(bytes));
    const stateField = scan.fields.findIndex((f) => f.name === 'cartesianInvalidState');
    assert.ok(stateField >= 0);
    const decoder = new BitPackDecoder(scan.fields[stateField]);
    const packets = await PacketStream.open(await PagedFile.open(new MemorySource(bytes)), scan.fileOffset, scan.fields.length, scan.name);
    for (let buffers = await packets.next(); buffers; buffers = await packets.next()) decoder.append(buffers[stateField]);
    assert.ok(decoder.available >= 30571);
    const states = new Float64Array(30571);
    decoder.decode(states, 0, 30571);
    const valid = states.filter((s) => s === 0).length;
    console.log(`# bunnyInt32: ${valid} of 30571 records valid`);
    assert.equal(read.count, valid);
    assert.deepEqual(read.info.scale, [1e-6, 1e-6, 1e-6]);
    assert.equal(read.info.hasColor, false);
    // The bunny is a connected surface: a point with its neighbour far away would mean a misread stream.
    const distinct = new Set<string>();
    for (let i = 0; i < read.count; i += 97) distinct.add(read.positions.slice(i * 3, i * 3 + 3).join());
    assert.ok(distinct.size > 300);
    // Each coordinate is a whole number of micrometres: raw * scale, not garbage bits.
    for (let i = 0; i < 3000; i++) assert.ok(Math.abs(read.positions[i] * 1e6 - Math.round(read.positions[i] * 1e6)) < 1e-3);
  });

  it('ColouredCubeFloat: 7,680 float points with colours', async () => {
    const read = await readFile(path.join(folder, 'ColouredCubeFloat.e57'));
    assert.equal(read.count, 7680);
    assert.equal(read.info.hasColor, true);
    assert.equal(read.info.scale, null);
    assert.equal(read.colors.length, 7680 * 3);
    const triples = new Set<string>();
    for (let i = 0; i < read.count; i++) triples.add(read.colors.slice(i * 3, i * 3 + 3).join());
    console.log(`# ColouredCubeFloat colours: ${[...triples].slice(0, 8).join(' | ')}`);
    assert.ok(triples.size > 1, 'more than one colour');
  });

  it('ColourRepresentation: 153 points with 16-bit colour kept at 16 bits', async () => {
    const read = await readFile(path.join(folder, 'ColourRepresentation.e57'));
    assert.equal(read.count, 153);
    assert.ok(read.colors.includes(65280), '65280 (a 16-bit value, not 255 * 257) comes out as stored');
  });

  it('pdal A_B and A_B_different_dims: two scans one after the other, fields differing', async () => {
    for (const file of ['pdal-A_B.e57', 'pdal-A_B_different_dims.e57', 'pdal-A_moved_B.e57']) {
      const bytes = readFileSync(path.join(folder, file));
      const xml = readXml(bytes);
      const scans = parseE57Xml(xml);
      assert.equal(scans.length, 2, file);
      const read = await readFile(path.join(folder, file));
      assert.equal(read.info.pointCount, scans[0].recordCount + scans[1].recordCount, file);
      assert.equal(read.count, read.info.pointCount, file);
      assert.equal(read.batches, 2, `${file}: one batch per scan`);
      if (file === 'pdal-A_B_different_dims.e57') {
        const names = scans.map((s) => s.fields.map((f) => f.name).join());
        assert.notEqual(names[0], names[1]);
        assert.equal(read.colors.length, read.count * 3, 'colours for every point of the file, zero where a scan has none');
      }
    }
  });

  it('refuses bad-crc (checksum, naming the page), empty and ZeroPoints (empty)', async () => {
    const bad = await refusal(() => readFile(path.join(folder, 'bad-crc.e57')));
    assert.equal(bad.reason, 'checksum');
    assert.match(bad.message, /Page 0/);
    assert.equal((await refusal(() => readFile(path.join(folder, 'empty.e57')))).reason, 'empty');
    assert.equal((await refusal(() => readFile(path.join(folder, 'ZeroPoints.e57')))).reason, 'empty');
  });
});

/** The XML of an E57 file, read independently of the reader (a test's own page walk). */
function readXml(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const out = new Uint8Array(Number(view.getBigUint64(32, true)));
  walkXml(bytes, (physical, logical, n) => out.set(bytes.subarray(physical, physical + n), logical));
  return Buffer.from(out).toString('utf8');
}

/** Puts text of the XML's own length in place of the XML. */
function replaceXml(bytes: Uint8Array, text: string) {
  const data = new TextEncoder().encode(text);
  walkXml(bytes, (physical, logical, n) => bytes.set(data.subarray(logical, logical + n), physical));
  fixChecksums(bytes);
}

function walkXml(bytes: Uint8Array, visit: (physical: number, logical: number, n: number) => void) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  let at = Number(view.getBigUint64(24, true));
  const length = Number(view.getBigUint64(32, true));
  for (let done = 0; done < length; ) {
    const n = Math.min(1020 - (at % 1024), length - done);
    visit(at, done, n);
    done += n;
    at += n;
    if (at % 1024 === 1020) at += 4;
  }
}

describe('E57 reader: files the writer makes', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'e57-reader-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('applies a pose: 90 degrees about z plus a translation', async () => {
    const file = path.join(dir, 'pose.e57');
    const s = Math.SQRT1_2;
    const points = [
      [1, 0, 0],
      [0, 2, 0],
      [3, 4, 5],
      [-1.5, 0.25, -2],
    ];
    await writeE57(file, [
      {
        name: 'turned',
        coordinates: 'cartesian',
        points: 4,
        pose: { rotation: [s, 0, 0, s], translation: [10, 20, 30] },
        fields: { x: { type: 'float' }, y: { type: 'float' }, z: { type: 'float' } },
        read: () => [{ x: points.map((p) => p[0]), y: points.map((p) => p[1]), z: points.map((p) => p[2]) }],
      },
      {
        name: 'still',
        coordinates: 'cartesian',
        points: 1,
        fields: { x: { type: 'float' }, y: { type: 'float' }, z: { type: 'float' } },
        read: () => [{ x: [7], y: [8], z: [9] }],
      },
    ]);
    const read = await readFile(file);
    assert.equal(read.info.pointCount, 5);
    // (x, y, z) turned 90 degrees about z is (-y, x, z).
    const expected = [...points.map(([x, y, z]) => [-y + 10, x + 20, z + 30]), [7, 8, 9]];
    assert.equal(read.count, 5);
    expected.flat().forEach((v, i) => assert.ok(Math.abs(read.positions[i] - v) < 1e-12, `value ${i}: ${read.positions[i]} != ${v}`));
    // Bounds: the turned box of the first scan and the second's point.
    assert.ok(read.info.bounds);
    const { min, max } = read.info.bounds!;
    // The first scan's box x -1.5..3, y 0..4, z -2..5 turned is x 6..10, y 18.5..23, z 28..35.
    [6, 8, 9].forEach((v, k) => assert.ok(Math.abs(min[k] - v) < 1e-12, `min ${k}: ${min[k]}`));
    [10, 23, 35].forEach((v, k) => assert.ok(Math.abs(max[k] - v) < 1e-12, `max ${k}: ${max[k]}`));
  });

  it('turns spherical coordinates into the cartesian ones they stand for, their invalid states too', async () => {
    const file = path.join(dir, 'spherical.e57');
    const n = 5000;
    const rae = (i: number) => ({
      range: 1 + (i % 97) * 0.5,
      azimuth: -Math.PI + ((i * 0.37) % (2 * Math.PI)),
      elevation: -1.2 + (i % 13) * 0.2,
      invalid: i % 10 === 3 ? 2 : 0,
    });
    await writeE57(file, [
      {
        name: 'sphere',
        coordinates: 'spherical',
        points: n,
        fields: { range: { type: 'float' }, azimuth: { type: 'float' }, elevation: { type: 'float' }, invalid: true },
        read: () => columns(n, rae),
      },
    ]);
    const read = await readFile(file);
    const kept = [...Array(n).keys()].filter((i) => rae(i).invalid === 0);
    assert.equal(read.count, kept.length);
    kept.forEach((i, j) => {
      const { range, azimuth, elevation } = rae(i);
      const expected = [range * Math.cos(elevation) * Math.cos(azimuth), range * Math.cos(elevation) * Math.sin(azimuth), range * Math.sin(elevation)];
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(read.positions[j * 3 + k] - expected[k]) < 1e-9, `point ${i}`);
    });
    assert.ok(read.info.bounds, 'the writer states cartesianBounds for spherical scans too');
  });

  it('leaves out the points whose invalid state is not 0', async () => {
    const file = path.join(dir, 'invalid.e57');
    const n = 1000;
    const state = (i: number) => (i % 7 === 0 ? 2 : i % 11 === 0 ? 1 : 0);
    await writeE57(file, [
      {
        name: 'holes',
        coordinates: 'cartesian',
        points: n,
        fields: { x: { scale: 0.001 }, y: { scale: 0.001 }, z: { scale: 0.001 }, invalid: true },
        read: () => columns(n, (i) => ({ x: i, y: -i, z: state(i) === 2 ? 0 : 1, invalid: state(i) })),
      },
    ]);
    const read = await readFile(file);
    const kept = [...Array(n).keys()].filter((i) => state(i) === 0);
    assert.equal(read.info.pointCount, n);
    assert.deepEqual(read.info.scale, [0.001, 0.001, 0.001]);
    assert.equal(read.info.hasIntensity, false);
    assert.equal(read.count, kept.length);
    kept.forEach((i, j) => assert.deepEqual(read.positions.slice(j * 3, j * 3 + 3), [i, -i, 1]));
  });

  it('round-trips 200,000 points over packets split mid-record: scaled integers to the step, floats exactly', async () => {
    const file = path.join(dir, 'big.e57');
    const n = 200_000;
    const point = (i: number) => ({
      x: Math.sin(i * 0.001) * 40 + i * 1e-4,
      y: Math.cos(i * 0.0037) * 12.5,
      z: ((i * 7919) % 10007) / 137,
      intensity: (i * 13) % 4096,
      red: i % 256,
      green: (i >> 8) % 256,
      blue: 255 - (i % 256),
    });
    const scale = 0.0005;
    await writeE57(
      file,
      [
        {
          name: 'scaled',
          coordinates: 'cartesian',
          points: n,
          fields: { x: { scale, offset: 3 }, y: { scale }, z: { scale: 0.01 }, intensity: { min: 0, max: 4095 }, red: {}, green: {}, blue: {} },
          read: () => columns(n, point),
        },
        {
          name: 'floats',
          coordinates: 'cartesian',
          points: n,
          fields: { x: { type: 'float', precision: 'single' }, y: { type: 'float' }, z: { type: 'float', precision: 'single' } },
          read: () => columns(n, point),
        },
      ],
      { packetBytes: 3001 },
    );
    const read = await readFile(file);
    assert.equal(read.info.pointCount, 2 * n);
    assert.equal(read.count, 2 * n);
    assert.deepEqual(read.info.scale, null, 'floats in one scan: no common scale');
    const step = (v: number, s: number, o = 0) => Math.round((v - o) / s) * s + o;
    for (let i = 0; i < n; i++) {
      const p = point(i);
      const at = i * 3;
      assert.equal(read.positions[at], step(p.x, scale, 3));
      assert.equal(read.positions[at + 1], step(p.y, scale));
      assert.equal(read.positions[at + 2], step(p.z, 0.01));
      assert.equal(read.intensity[i], Math.round((p.intensity * 65535) / 4095));
      assert.deepEqual(read.colors.slice(at, at + 3), [p.red * 257, p.green * 257, p.blue * 257]);
      const f = (n + i) * 3;
      assert.equal(read.positions[f], Math.fround(p.x));
      assert.equal(read.positions[f + 1], p.y);
      assert.equal(read.positions[f + 2], Math.fround(p.z));
      assert.equal(read.intensity[n + i], 0, 'the float scan has no intensity');
    }

    // The packets really cut records: some packet ends a field's stream inside a value.
    const source = new MemorySource(readFileSync(file));
    const paged = await PagedFile.open(source);
    const scans = parseE57Xml(readXml(readFileSync(file)));
    const packets = await PacketStream.open(paged, scans[0].fileOffset, scans[0].fields.length, 'scaled');
    let count = 0;
    let cutInsideValue = false;
    const totals = scans[0].fields.map(() => 0);
    for (let buffers = await packets.next(); buffers; buffers = await packets.next()) {
      count++;
      buffers.forEach((b, k) => {
        totals[k] += b.length * 8;
        if (totals[k] % scans[0].fields[k].bits !== 0) cutInsideValue = true;
      });
      const values = buffers.map((b, k) => Math.floor(totals[k] / scans[0].fields[k].bits));
      if (new Set(values).size > 1) cutInsideValue = true;
    }
    assert.ok(count > 100, `${count} packets`);
    assert.ok(cutInsideValue, 'some packet ends inside a record');
    assert.ok(toLogical(scans[1].fileOffset, 'scan') > 0);
  });

  it('refuses a flipped byte (checksum, naming the page) and a file cut short (truncated)', async () => {
    const file = path.join(dir, 'small.e57');
    const n = 20_000;
    await writeE57(file, [{ name: 'a', coordinates: 'cartesian', points: n, fields: { x: { scale: 0.001 }, y: { scale: 0.001 }, z: { scale: 0.001 } }, read: () => columns(n, (i) => ({ x: i * 0.001, y: 1, z: 2 })) }]);
    const bytes = readFileSync(file);
    assert.equal((await readAll(await openPointSource(new MemorySource(bytes)))).count, n);

    const flipped = Uint8Array.from(bytes);
    flipped[5 * 1024 + 100] ^= 0x10;
    const error = await refusal(async () => readAll(await openPointSource(new MemorySource(flipped))));
    assert.equal(error.reason, 'checksum');
    assert.match(error.message, /Page 5\b/);

    const cut = bytes.subarray(0, bytes.length - 1024);
    assert.equal((await refusal(() => openPointSource(new MemorySource(cut)))).reason, 'truncated');
  });

  it('refuses broken XML (malformed), a scan without coordinates (unsupported), and never crashes on damaged bytes', async () => {
    const file = path.join(dir, 'fuzz.e57');
    const n = 3000;
    await writeE57(
      file,
      [{ name: 'a', coordinates: 'cartesian', points: n, fields: { x: { scale: 0.001 }, y: { type: 'float', precision: 'single' }, z: { scale: 0.01 }, intensity: {}, invalid: true }, read: () => columns(n, (i) => ({ x: i * 0.001, y: i % 17, z: 2, intensity: i, invalid: i % 5 === 0 ? 2 : 0 })) }],
      { packetBytes: 700 },
    );
    const bytes = readFileSync(file);
    const xml = readXml(bytes);

    const broken = Uint8Array.from(bytes);
    replaceXml(broken, xml.replace('<data3D', '<data3D <<'.padEnd(7, ' ')).slice(0, xml.length));
    assert.equal((await refusal(() => openPointSource(new MemorySource(broken)))).reason, 'malformed');

    const renamed = Uint8Array.from(bytes);
    replaceXml(renamed, xml.replaceAll('cartesianX', 'cartesianQ'));
    const unsupported = await refusal(() => openPointSource(new MemorySource(renamed)));
    assert.equal(unsupported.reason, 'unsupported');
    assert.match(unsupported.message, /cartesianQ/);

    const inflated = Uint8Array.from(bytes);
    replaceXml(inflated, xml.replace('recordCount="3000"', 'recordCount="9999"'));
    const overclaim = await refusal(() => openPointSource(new MemorySource(inflated)));
    assert.equal(overclaim.reason, 'malformed');
    assert.match(overclaim.message, /9999 records/);

    const short = Uint8Array.from(bytes);
    replaceXml(short, xml.replace('recordCount="3000"', 'recordCount="3001"'));
    const ended = await refusal(async () => readAll(await openPointSource(new MemorySource(short))));
    assert.equal(ended.reason, 'malformed');
    assert.match(ended.message, /ends after/);

    // Damaged bytes with good checksums: read or refused, never another error, never a hang.
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 300; round++) {
      const damaged = Uint8Array.from(bytes);
      // Every fifth round damages the file header (after the signature), the others anything after it.
      const from = round % 5 === 0 ? 8 : 48;
      const to = round % 5 === 0 ? 48 : damaged.length;
      for (let k = 0; k < 1 + (round % 4); k++) damaged[from + Math.floor(random() * (to - from))] = Math.floor(random() * 256);
      fixChecksums(damaged);
      let outcome = 'read';
      try {
        await readAll(await openPointSource(new MemorySource(damaged)));
      } catch (error) {
        assert.ok(error instanceof PointCloudError, `round ${round}: ${(error as Error).stack}`);
        outcome = error.reason;
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    console.log(`# damaged E57 files: ${JSON.stringify(Object.fromEntries(outcomes))}`);
    assert.ok(outcomes.get('read')! > 0 && outcomes.size > 1, JSON.stringify([...outcomes]));
  });
});

describe('E57 writer', () => {
  it('writes whole pages with CRC-32C checksums and refuses points outside a stated range', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'e57-writer-'));
    try {
      const file = path.join(dir, 'w.e57');
      const { bytes } = await writeE57(file, [{ name: 'a', coordinates: 'cartesian', points: 2, fields: { x: { scale: 0.01 }, y: { scale: 0.01 }, z: { scale: 0.01 } }, read: () => [{ x: [0, 1], y: [0, 1], z: [0, 1] }] }]);
      const data = readFileSync(file);
      assert.equal(data.length, bytes);
      assert.equal(data.length % 1024, 0);
      for (let p = 0; p < data.length; p += 1024) assert.equal(data.readUInt32BE(p + 1020), crc32c(data, p, p + 1020));
      await assert.rejects(
        writeE57(file, [{ name: 'a', coordinates: 'cartesian', points: 1, bounds: { min: [0, 0, 0], max: [1, 1, 1] }, fields: { x: { scale: 0.01 }, y: { scale: 0.01 }, z: { scale: 0.01 } }, read: () => [{ x: [5], y: [0], z: [0] }] }]),
        /outside/,
      );
      writeFileSync(file, '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
