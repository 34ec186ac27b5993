import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { IfcAPI } from 'web-ifc';
import { sampleFile } from '../../../samples/files.js';
import { bimModelsFolder } from '../../../scripts/bim-models.mjs';
import { forEachGeometry, placedLayoutHolds, type FlatMesh } from '../../../src/core/ifc/web-ifc-engine.js';
import { withModel } from '../../jobs/read-ifc.js';

/**
 * forEachGeometry reads each placed geometry of a streamed mesh (colour, placement,
 * geometry id) from web-ifc's memory instead of through the binding's `get(i)`: checked
 * here against `get(i)` for every piece of the generated and the real models.
 */

/**
 * The mesh's list of pieces without its handle on web-ifc's memory (the binding's `$$`),
 * as a web-ifc of another layout would be read: through `get(i)`, forEachGeometry's
 * fallback. Counts the calls to `get`.
 */
function withoutMemory(list: FlatMesh['geometries'], calls: { get: number }): FlatMesh['geometries'] {
  return { size: () => list.size(), get: (i: number) => (calls.get++, list.get(i)), delete: () => list.delete() } as FlatMesh['geometries'];
}

/** Every piece as `get(i)` gives it and as forEachGeometry hands it to its callback; the mismatches. */
function compare(ifc: IfcAPI, model: number, fallback?: { get: number }): { pieces: number; mismatches: string[] } {
  const mismatches: string[] = [];
  let pieces = 0;
  const text = (p: { color: { x: number; y: number; z: number; w: number }; geometryExpressID: number; flatTransformation: ArrayLike<number> }) =>
    `${p.geometryExpressID} ${[p.color.x, p.color.y, p.color.z, p.color.w].join()} ${Array.from(p.flatTransformation).join()}`;
  ifc.StreamAllMeshes(model, (mesh) => {
    const list = (mesh as unknown as FlatMesh).geometries;
    // The pieces with triangles (forEachGeometry leaves out the empty ones).
    const expected = Array.from({ length: list.size() }, (_, i) => list.get(i)).filter((placed) => {
      const geometry = ifc.GetGeometry(model, placed.geometryExpressID);
      const drawn = geometry.GetVertexDataSize() > 0 && geometry.GetIndexDataSize() > 0;
      geometry.delete();
      return drawn;
    }).map(text);
    const seen: string[] = [];
    const read = fallback ? { ...(mesh as unknown as FlatMesh), geometries: withoutMemory(list, fallback) } : (mesh as unknown as FlatMesh);
    forEachGeometry(ifc, model, read, (_vertices, _triangles, placed) => void seen.push(text(placed)));
    pieces += seen.length;
    if (seen.join('\n') !== expected.join('\n') && mismatches.length < 5) mismatches.push(`#${mesh.expressID}: ${seen[0]} against ${expected[0]}`);
  });
  return { pieces, mismatches };
}

describe('placed geometries read from web-ifc\'s memory', () => {
  it('gives every piece of the generated house and office-2k as the binding\'s get() does', async () => {
    for (const name of ['house', 'office-2k']) {
      await withModel(new Uint8Array(readFileSync(sampleFile(name).ifc)), async (ifc, model) => {
        const { pieces, mismatches } = compare(ifc, model);
        assert.ok(pieces > 100, `${name}: ${pieces} pieces`);
        assert.deepEqual(mismatches, [], name);
        assert.equal(placedLayoutHolds(ifc), true, 'read from memory, not through get()');
      });
    }
  });

  it('gives the same pieces through get(), once each, where the memory is not known', async () => {
    await withModel(new Uint8Array(readFileSync(sampleFile('office-2k').ifc)), async (ifc, model) => {
      const calls = { get: 0 };
      const { pieces, mismatches } = compare(ifc, model, calls);
      assert.ok(pieces > 100, `${pieces} pieces`);
      assert.deepEqual(mismatches, []);
      // Every piece, the empty ones too, is got once: its id, then what fn is handed.
      let all = 0;
      ifc.StreamAllMeshes(model, (mesh) => void (all += (mesh as unknown as FlatMesh).geometries.size()));
      assert.equal(calls.get, all);
    });
  });

  const real = bimModelsFolder();
  it(`gives every piece of every real model as get() does (${real ?? 'BIM_MODELS not found: none'})`, async () => {
    for (const file of real ? readdirSync(real).filter((f) => f.toLowerCase().endsWith('.ifc')) : []) {
      await withModel(new Uint8Array(readFileSync(path.join(real!, file))), async (ifc, model) => {
        assert.deepEqual(compare(ifc, model).mismatches, [], file);
      });
    }
  });
});
