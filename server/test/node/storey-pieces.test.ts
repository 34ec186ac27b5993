import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { piecesByStorey } from '../../../src/core/plan/storey-pieces.js';
import type { MeshPiece } from '../../../src/core/plan/meshes.js';

/**
 * piecesByStorey (core/plan/storey-pieces.ts) gives each storey the pieces a pass over all
 * of them with its band's test would: the same pieces, in the same order, whatever the
 * order of the storeys, for pieces that touch a band's edge exactly, span many storeys,
 * lie between bands or are empty.
 */
function piece(owner: number, minZ: number, maxZ: number): MeshPiece {
  const none = new Float64Array(0);
  return { owner, positions: none, base: 0, indices: new Uint32Array(0), start: 0, end: 0, edges: new Uint32Array(0), minX: 0, minY: 0, minZ, maxX: 1, maxY: 1, maxZ };
}

/** What extractPlan's storeys looked at before: every piece, tested against each band. */
function oneByOne(pieces: MeshPiece[], elevations: number[], below: number, above: number): number[][] {
  return elevations.map((e) => pieces.filter((p) => !(p.maxZ < e - below || p.minZ > e + above)).map((p) => p.owner));
}

describe('piecesByStorey: the pieces near each storey', () => {
  it('gives each storey the pieces in its band, in their order, storeys in any order', () => {
    // storeys at 3, 0 and 6 m, bands from 0.05 under to 1.2 over
    const pieces = [
      piece(1, 0, 3), // a wall of the ground floor: reaches the first floor's band bottom (2.95)
      piece(2, 1.2, 1.2), // exactly at the ground floor's band top
      piece(3, 1.3, 2.9), // between bands: nobody's
      piece(4, -1, 10), // a column through all three
      piece(5, 6 - 0.05, 6 - 0.05), // exactly at the top floor's band bottom
      piece(6, Infinity, -Infinity), // empty
      piece(7, 3.5, 4), // the first floor's
    ];
    const lists = piecesByStorey(pieces, [3, 0, 6], 0.05, 1.2).map((list) => list.map((p) => p.owner));
    assert.deepEqual(lists, [[1, 4, 7], [1, 2, 4], [4, 5]]);
    assert.deepEqual(lists, oneByOne(pieces, [3, 0, 6], 0.05, 1.2));
  });

  it('agrees with a pass per storey on random pieces and storeys', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let round = 0; round < 50; round++) {
      const elevations = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.round(random() * 40) / 2 - 3);
      const pieces = Array.from({ length: 300 }, (_, i) => {
        const minZ = random() * 45 - 5;
        return piece(i, minZ, minZ + (random() < 0.1 ? random() * 30 : random() * 2));
      });
      const lists = piecesByStorey(pieces, elevations, 0.05, 1.2).map((list) => list.map((p) => p.owner));
      assert.deepEqual(lists, oneByOne(pieces, elevations, 0.05, 1.2), `round ${round}`);
    }
  });
});
