import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { IfcAPI } from 'web-ifc';
import { sampleFile } from '../../../samples/files.js';
import { bimModelsFolder } from '../../../scripts/bim-models.mjs';
import { createIfcApi, openModel } from '../../../src/core/ifc/web-ifc-engine.js';
import { writeScene } from '../../../src/core/ifc/scene-converter.js';
import { checksums } from '../../../src/core/formats/checksum.js';
import { checksum, RecordKind, SceneFormatError, SceneReader, type SceneRecord } from '../../../src/core/formats/scene.js';
import { packIndices, packPositions, positionStep, unpackIndices, unpackPositions } from '../../../src/core/formats/packing.js';
import { GeometryStream } from '../../../src/core/ifc/geometry-stream.js';
import { StreamPlan } from '../../../src/core/ifc/stream-plan.js';
import { UnstyledProducts } from '../../../src/core/ifc/unstyled.js';
import type { GeometryChunk } from '../../../src/core/ifc/protocol.js';
import { encodePlans } from '../../../src/core/formats/plans.js';
import { extractPlan } from '../../../src/core/plan/extract-plan.js';
import { MeshCollector } from '../../../src/core/plan/meshes.js';
import { doorSymbols } from '../../../src/core/plan/plan-symbols.js';
import { readUnits } from '../../../src/core/ifc/units.js';
import { DEFAULT_PLAN_OPTIONS } from '../../../src/core/plan/protocol.js';

/**
 * The scene format (src/core/formats/scene.ts) written from real web-ifc by the converter
 * the import and `npm run scene` use, checked against what the sample generator says it
 * wrote (its truth file) and against raw web-ifc, and read back as a page would: in
 * pieces of any size, refusing what is not a whole scene of a known version.
 */
const WASM = createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm');
const api = createIfcApi(WASM);

async function convert(file: string): Promise<Uint8Array> {
  const ifc = await api;
  const model = openModel(ifc, readFileSync(file));
  const parts: Uint8Array[] = [];
  try {
    writeScene(ifc, model, (bytes) => parts.push(bytes.slice()));
  } finally {
    ifc.CloseModel(model);
  }
  return new Uint8Array(Buffer.concat(parts));
}

before(() => checksums());

/** Reads a scene pushed in pieces cut at `cuts`. */
function read(bytes: Uint8Array, cuts: number[] = []): SceneRecord[] {
  const reader = new SceneReader();
  const records: SceneRecord[] = [];
  let at = 0;
  for (const cut of [...cuts.sort((a, b) => a - b), bytes.length]) {
    records.push(...reader.push(bytes.subarray(at, cut)));
    at = cut;
  }
  reader.finish();
  return records;
}

/** Where each record of a scene starts (its kind; the payload is 12 bytes on), from the records' lengths. */
function recordStarts(bytes: Uint8Array): number[] {
  const starts: number[] = [];
  for (let at = 16; at < bytes.length; at += 12 + ((new DataView(bytes.buffer, bytes.byteOffset + at + 4).getUint32(0, true) + 3) & ~3)) starts.push(at);
  return starts;
}

const of = <K extends RecordKind>(records: SceneRecord[], kind: K) => records.filter((r): r is Extract<SceneRecord, { kind: K }> => r.kind === kind);

describe('the scene format', () => {
  for (const name of ['house', 'house-georeferenced', 'cabin']) {
    it(`holds ${name}'s products, storeys, grid and geometry where the generator put them`, async () => {
      const sample = sampleFile(name);
      const truth = JSON.parse(readFileSync(sample.truth, 'utf8'));
      const records = read(await convert(sample.ifc));
      assert.deepEqual(records.map((r) => r.kind).filter((k, i, all) => k !== all[i - 1]), [RecordKind.Header, RecordKind.Chunk, RecordKind.Products, RecordKind.End]);
      const [{ header }] = of(records, RecordKind.Header);
      const [{ products }] = of(records, RecordKind.Products);
      const chunks = of(records, RecordKind.Chunk);
      assert.equal(header.schema, truth.schema);

      // Products: every one the generator wrote, with its type, GlobalId and parent; and the project.
      const byId = new Map(products.expressIds.map((id, i) => [id, i]));
      for (const p of truth.products) {
        const i = byId.get(p.id);
        assert.ok(i !== undefined, `product #${p.id} (${p.type})`);
        assert.deepEqual([products.types[i], products.globalIds[i], products.parents[i]], [p.type, p.guid, p.parent ?? 0]);
      }
      assert.equal(products.types[byId.get(truth.project.id)!], 'IfcProject');
      const storeys: string[] = [];
      const visit = (node: NonNullable<typeof products.spatial>) => {
        if (node.type === 'IfcBuildingStorey') storeys.push(node.name);
        node.children.forEach(visit);
      };
      visit(products.spatial!);
      assert.deepEqual(storeys, truth.storeys.map((s: { name: string }) => s.name));
      if (truth.grid) assert.deepEqual(header.grids[0].axes.map((a) => a.tag).sort(), truth.grid.axes.map((a: { tag: string }) => a.tag).sort());

      // Geometry: the element chunks' boxes, moved back by the origin (far away when georeferenced), make the model's box; spaces come last, alone.
      const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
      const spaceIds = new Set<number>();
      let spacesBegan = false;
      for (const { chunk, spaces } of chunks) {
        spacesBegan ||= spaces;
        assert.equal(spaces, spacesBegan, 'no element chunk after the first spaces chunk');
        const types = [...chunk.types].map((code) => header.typeNames[code]);
        assert.ok(types.every((t) => (t === 'IfcSpace') === spaces), `chunk of ${new Set(types)} flagged spaces=${spaces}`);
        if (spaces) chunk.expressIds.forEach((id) => spaceIds.add(id));
        else {
          for (let o = 0; o < chunk.expressIds.length; o++) {
            for (let k = 0; k < 3; k++) {
              box[k] = Math.min(box[k], chunk.boxes[o * 6 + k] + header.origin![k]);
              box[k + 3] = Math.max(box[k + 3], chunk.boxes[o * 6 + 3 + k] + header.origin![k]);
            }
          }
        }
      }
      const expected = [...truth.box.min, ...truth.box.max];
      box.forEach((v, k) => assert.ok(Math.abs(v - expected[k]) < 1e-3, `box ${box} against ${expected}`));
      assert.equal(spaceIds.size, truth.spaces.length);
    });
  }

  const real = bimModelsFolder() && path.join(bimModelsFolder()!, 'Duplex_A_20110907.ifc');
  it('draws as many triangles as raw web-ifc streams from a real model (Duplex)', { skip: !real || !existsSync(real) ? 'no Duplex_A_20110907.ifc in BIM_MODELS' : false }, async () => {
    const records = read(await convert(real!));
    const header = of(records, RecordKind.Header)[0].header;
    let ours = 0;
    for (const { chunk, spaces } of of(records, RecordKind.Chunk)) if (!spaces) ours += chunk.indices.length / 3;
    const raw = new IfcAPI();
    await raw.Init(undefined, true);
    const model = raw.OpenModel(readFileSync(real!), { COORDINATE_TO_ORIGIN: false });
    let theirs = 0;
    raw.StreamAllMeshes(model, (mesh) => {
      for (let i = 0; i < mesh.geometries.size(); i++) {
        const geometry = raw.GetGeometry(model, mesh.geometries.get(i).geometryExpressID);
        theirs += geometry.GetIndexDataSize() / 3;
        geometry.delete();
      }
    });
    raw.CloseModel(model);
    assert.ok(ours > 10_000, String(ours));
    assert.equal(ours, theirs);
    assert.equal(header.schema, 'IFC2X3');
  });

  const placedOften = bimModelsFolder() && path.join(bimModelsFolder()!, 'example_project_location.ifc');
  it('holds a shape placed many times once, and reads back the chunks the IFC worker makes (example_project_location)', { skip: !placedOften || !existsSync(placedOften) ? 'no example_project_location.ifc in BIM_MODELS' : false }, async () => {
    const bytes = await convert(placedOften!);
    // Record by record: the shapes, and the indices each chunk holds against those it has.
    let shapes = 0, held = 0, all = 0;
    for (const at of recordStarts(bytes)) {
      const view = new DataView(bytes.buffer, bytes.byteOffset + at);
      if (view.getUint32(0, true) === RecordKind.Shape) shapes++;
      if (view.getUint32(0, true) === RecordKind.Chunk) [all, held] = [all + view.getUint32(12 + 8, true), held + view.getUint32(12 + 28, true)];
    }
    assert.ok(shapes > 0 && held < all / 3, `${shapes} shape records; the chunks hold ${held} of their ${all} indices`);
    const records = read(bytes);
    const { origin } = of(records, RecordKind.Header)[0].header;
    // The same model through the IFC worker's stream, which writes every piece out.
    const ifc = await api;
    const model = openModel(ifc, readFileSync(placedOften!));
    const direct: GeometryChunk[] = [];
    try {
      const plan = new StreamPlan(ifc, model, null);
      const stream = new GeometryStream(ifc, model, plan, new UnstyledProducts(ifc, model));
      for (let unit = 0; unit < plan.units; unit++) stream.units([unit], origin, (chunk) => direct.push(chunk));
      stream.end((chunk) => direct.push(chunk));
    } finally {
      ifc.CloseModel(model);
    }
    const chunks = of(records, RecordKind.Chunk).map((r) => r.chunk);
    assert.equal(chunks.length, direct.length);
    let triangles = 0;
    chunks.forEach((chunk, c) => {
      const expected = direct[c];
      for (const key of ['colors', 'objects', 'indices', 'ranges', 'sizes', 'expressIds', 'types', 'boxes'] as const) assert.deepEqual(chunk[key], expected[key], `chunk ${c}: ${key}`);
      const step = positionStep(expected.positions);
      const worst = Math.max(...chunk.positions.map((p, i) => Math.abs(p - expected.positions[i])));
      assert.ok(worst <= step, `chunk ${c}: positions off by ${worst} m (grid ${step} m)`);
      triangles += chunk.indices.length / 3;
    });
    assert.ok(triangles > 150_000, `${triangles} triangles read back from a file of ${bytes.length} bytes`);
  });

  it('is what `npm run scene` writes, and the command says why it could not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scene-cli-'));
    try {
      const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ifc-to-scene.ts', ...args], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
      const out = path.join(dir, 'house.scene');
      const done = run(sampleFile('house').ifc, out);
      assert.equal(done.status, 0, done.stderr);
      const report = JSON.parse(done.stdout);
      const bytes = new Uint8Array(readFileSync(out));
      assert.equal(report.bytes, bytes.length);
      assert.deepEqual(read(bytes), read(await convert(sampleFile('house').ifc)));
      assert.equal(report.products, of(read(bytes), RecordKind.Products)[0].products.expressIds.length);

      const bad = path.join(dir, 'bad.ifc');
      writeFileSync(bad, 'not a building');
      const failed = run(bad, path.join(dir, 'bad.scene'));
      assert.equal(failed.status, 1);
      assert.match(failed.stderr, /Not an IFC file/);
      assert.ok(!existsSync(path.join(dir, 'bad.scene')), 'no scene file left behind');
      assert.equal(run().status, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('collects the plans\' meshes on its way, and takes door symbols read apart: the plans are those the 2D viewer\'s worker extracts alone', async () => {
    const ifc = await api;
    const files = [sampleFile('house').ifc, ...(real && existsSync(real) ? [real] : []), ...(placedOften && existsSync(placedOften) ? [placedOften] : [])];
    const bytesOf = (plan: ReturnType<typeof extractPlan>) => Buffer.from(encodePlans(plan));
    for (const file of files) {
      const model = openModel(ifc, readFileSync(file));
      try {
        const alone = extractPlan(ifc, model, '0');
        const meshes = new MeshCollector();
        writeScene(ifc, model, () => {}, { onPiece: meshes.add });
        assert.ok(meshes.elements.length > 0, `${path.basename(file)}: pieces collected`);
        // The import's other thread reads the doors' symbols, and hands them over.
        const symbols = doorSymbols(ifc, model, readUnits(ifc, model));
        if (file === files[0]) assert.ok(symbols.owners.length > 0, 'the house has door symbols');
        const shared = extractPlan(ifc, model, '0', DEFAULT_PLAN_OPTIONS, { meshes, symbols: structuredClone(symbols) });
        assert.ok(shared.storeys.some((s) => s.cut.solid.owners.length > 0), `${path.basename(file)}: walls cut`);
        assert.ok(bytesOf(shared).equals(bytesOf(alone)), `${path.basename(file)}: the same plans`);
      } finally {
        ifc.CloseModel(model);
      }
    }
  });

  it('packs positions onto a tenth-of-a-millimetre grid (coarser only past 50 km) and indices exactly', () => {
    const random = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (const [extent, bound] of [[40, 5e-5], [3e4, 5e-5], [2e6, 2e6 / 2 ** 29]] as const) {
      const next = random(7);
      const positions = Float32Array.from({ length: 3000 }, () => (next() - 0.5) * 2 * extent);
      const step = positionStep(positions);
      const back = unpackPositions(packPositions(positions, step), positions.length, step);
      const worst = Math.max(...positions.map((p, i) => Math.abs(p - back[i]) - Math.abs(p) * 2 ** -23));
      assert.ok(worst <= bound, `extent ${extent} m: off by ${worst} m (bound ${bound})`);
    }
    for (const indices of [Uint16Array.from([0, 1, 2, 65535, 2, 0, 7, 7, 7]), Uint32Array.from([0, 70000, 3, 4294967295, 1, 0])]) {
      assert.deepEqual(unpackIndices(packIndices(indices), indices.length, indices instanceof Uint32Array), indices);
    }
  });

  it('reads the same records whatever pieces the bytes arrive in', async () => {
    const bytes = await convert(sampleFile('house').ifc);
    const whole = read(bytes);
    const cuts = Array.from({ length: 40 }, (_, i) => Math.floor(((i * 7919) % 997) / 997 * bytes.length));
    const pieces = read(bytes, cuts);
    assert.equal(pieces.length, whole.length);
    assert.deepEqual(pieces, whole);
    assert.deepEqual(read(bytes, Array.from({ length: 100 }, (_, i) => i + 1)), whole, 'one byte at a time at the start');
  });

  it('refuses what is not a whole scene of a known version, saying why', async () => {
    const bytes = await convert(sampleFile('house').ifc);
    const fails = (input: Uint8Array, message: RegExp) =>
      assert.throws(() => read(input), (error: Error) => {
        assert.ok(error instanceof SceneFormatError, error.message);
        assert.match(error.message, message);
        return true;
      });
    fails(new TextEncoder().encode('ISO-10303-21;\nHEADER;\n'), /Not a scene file/);
    const future = bytes.slice();
    new DataView(future.buffer).setUint32(8, 99, true);
    fails(future, /version 99 is not supported/);
    for (const at of [10, 20, 1000, bytes.length / 2, bytes.length - 4]) fails(bytes.subarray(0, Math.floor(at)), /truncated/);
    const extra = new Uint8Array(Buffer.concat([bytes, bytes.subarray(16, 40)]));
    fails(extra, /after its end record/);
    const unknown = bytes.slice();
    const header = new DataView(unknown.buffer, 16);
    header.setUint32(0, 77, true); // the header record's kind
    fails(unknown, /checksum of its record at byte 16 does not match/);
    header.setUint32(8, checksum(unknown.subarray(16), header.getUint32(4, true)), true);
    fails(unknown, /unknown kind 77/);
  });

  it('refuses a scene with any byte of a record changed, naming the record', async () => {
    const bytes = await convert(sampleFile('house').ifc);
    const starts = recordStarts(bytes);
    assert.ok(starts.length >= 4, `${starts.length} records`);
    for (const [i, start] of starts.entries()) {
      const end = starts[i + 1] ?? bytes.length;
      // A byte in the middle of the record, its length's last byte, and its last payload byte.
      for (const at of [(start + end) >> 1, start + 7, start + 12 + new DataView(bytes.buffer, start + 4).getUint32(0, true) - 1]) {
        const damaged = bytes.slice();
        damaged[at] ^= 0x10;
        assert.throws(() => read(damaged), (error: Error) => error instanceof SceneFormatError && /damaged|truncated/.test(error.message), `a bit flipped at byte ${at}`);
        if (at !== start + 7) assert.throws(() => read(damaged), new RegExp(`checksum of its record at byte ${start} `));
      }
    }
  });
});
