import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { IfcAPI } from 'web-ifc';
import { sampleFile } from '../../../samples/files.js';
import { forEachGeometry, type FlatMesh } from '../../../src/core/ifc/web-ifc-engine.js';
import { GeometryCache } from '../../../src/core/ifc/geometry-cache.js';
import { withModel } from '../../jobs/read-ifc.js';

/** Each placed geometry's id, placement and a hash of its data, in stream order; and how often web-ifc was asked for a geometry. */
function placedGeometries(ifc: IfcAPI, model: number, cache?: GeometryCache) {
  const pieces: string[] = [];
  let asked = 0;
  const getGeometry = ifc.GetGeometry;
  ifc.GetGeometry = (...args) => (asked++, getGeometry.apply(ifc, args));
  try {
    ifc.StreamAllMeshes(model, (mesh) =>
      forEachGeometry(ifc, model, mesh as unknown as FlatMesh, (vertices, triangles, placed) => {
        const hash = createHash('sha1').update(new Uint8Array(vertices.buffer, vertices.byteOffset, vertices.byteLength)).update(new Uint8Array(triangles.buffer, triangles.byteOffset, triangles.byteLength));
        pieces.push(`${mesh.expressID} ${placed.geometryExpressID} ${Array.from(placed.flatTransformation).join(',')} ${hash.digest('hex')}`);
      }, cache),
    );
  } finally {
    ifc.GetGeometry = getGeometry;
  }
  return { pieces, asked };
}

describe('GeometryCache', () => {
  it('gives every placed geometry as web-ifc does, asking web-ifc once or twice for one placed many times', async () => {
    const bytes = new Uint8Array(readFileSync(sampleFile('house').ifc));
    await withModel(bytes, async (ifc, model) => {
      const plain = placedGeometries(ifc, model);
      const cached = placedGeometries(ifc, model, new GeometryCache());
      assert.deepEqual(cached.pieces, plain.pieces);
      const distinct = new Set(plain.pieces.map((p) => p.split(' ')[1])).size;
      assert.ok(plain.pieces.length > distinct + 50, 'the house places geometries more than once');
      assert.ok(cached.asked <= 2 * distinct, `${cached.asked} geometries asked for, ${distinct} distinct`);
      // With no room for copies, every placement goes to web-ifc again.
      assert.equal(placedGeometries(ifc, model, new GeometryCache(0)).asked, plain.asked);
    });
  });
});
