import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spaceFootprint } from '../../../src/core/plan/space-footprint.js';
import { ringsArea } from '../../../src/core/plan/polygon.js';
import type { MeshPiece } from '../../../src/core/plan/meshes.js';

/** A flat floor of n x n cells, `size` metres a side at z = 0, facing down; each triangle `copies` times. */
function floor(n: number, size: number, copies: number): MeshPiece {
  const positions = new Float64Array((n + 1) * (n + 1) * 3);
  for (let y = 0, v = 0; y <= n; y++) for (let x = 0; x <= n; x++, v += 3) positions.set([(x / n) * size, (y / n) * size, 0], v);
  const indices: number[] = [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
      // Clockwise seen from above: the triangles face down, as a floor's underside does.
      for (let k = 0; k < copies; k++) indices.push(a, c, b, b, c, d);
    }
  }
  return { owner: 1, positions, base: 0, indices: new Uint32Array(indices), start: 0, end: indices.length, edges: new Uint32Array(0), minX: 0, minY: 0, minZ: 0, maxX: size, maxY: size, maxZ: 0 };
}

describe('spaceFootprint', () => {
  it('outlines a floor of a few triangles, each given twice', () => {
    const rings = spaceFootprint([floor(3, 6, 2)]);
    assert.equal(rings.owners.length, 1);
    assert.equal(rings.starts[1] - rings.starts[0], 5, 'four corners, the first again at the end');
    assert.ok(Math.abs(ringsArea(rings) - 36) < 1e-9, `area ${ringsArea(rings)}`);
  });

  it('outlines a floor of more corners than its triangles\' number keys hold (2^17), each triangle given twice', () => {
    const rings = spaceFootprint([floor(380, 38, 2)]);
    assert.equal(rings.owners.length, 1);
    assert.equal(rings.starts[1] - rings.starts[0], 5);
    assert.ok(Math.abs(ringsArea(rings) - 38 * 38) < 1e-6, `area ${ringsArea(rings)}`);
  });

  it('gives the same outline for a space read after another (the point index is shared)', () => {
    const first = spaceFootprint([floor(4, 2, 1)]);
    spaceFootprint([floor(10, 50, 1)]);
    assert.deepEqual(spaceFootprint([floor(4, 2, 1)]), first);
  });
});
