import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chainSegments, LinesBuilder } from '../../../src/core/plan/chain.js';
import { PointIndex } from '../../../src/core/plan/point-index.js';
import type { PlanLines } from '../../../src/core/plan/protocol.js';

/**
 * chainSegments (core/plan/chain.ts) joins loose segments into polylines, each owner's
 * apart, owners in ascending order; one graph and one point index serve every owner's
 * group in turn. These check the joining on a hand-made case, and that many groups read
 * one after another (bigger and smaller, owners in any order) give what each owner's
 * segments chained alone give.
 */
function lines(built: PlanLines): Array<{ owner: number; points: number[] }> {
  return [...built.owners].map((owner, i) => ({ owner, points: [...built.coords.subarray(built.starts[i] * 2, built.starts[i + 1] * 2)] }));
}

function segmentsOf(list: Array<[number, number, number, number, number]>) {
  return { segments: new Float64Array(list.flatMap(([x1, y1, x2, y2]) => [x1, y1, x2, y2])), owners: new Uint32Array(list.map((s) => s[4])) };
}

describe('chainSegments: segments into polylines', () => {
  it('closes a loop, drops middle points of straight runs, duplicates and zero-length pieces, and keeps owners apart', () => {
    const { segments, owners } = segmentsOf([
      [2, 0, 2, 2, 9], // owner 9: a square, its sides out of order, the bottom in two pieces
      [0, 0, 1, 0, 9],
      [0, 2, 0, 0, 9],
      [2, 2, 0, 2, 9],
      [1, 0, 2, 0, 9],
      [1, 0, 0, 0, 9], // the same edge again, reversed
      [5, 5, 5, 5, 9], // zero length
      [0, 0, 1, 1, 3], // owner 3 (first, though it comes later): an open bent line
      [1, 1, 3, 1, 3],
    ]);
    assert.deepEqual(lines(chainSegments(segments, owners).build()), [
      { owner: 3, points: [0, 0, 1, 1, 3, 1] },
      { owner: 9, points: [2, 0, 2, 2, 0, 2, 0, 0, 2, 0] },
    ]);
  });

  it('builds no lines as PlanLines with one start, 0', () => {
    for (const built of [new LinesBuilder().build(), chainSegments(new Float64Array(0), new Uint32Array(0)).build(), chainSegments(new Float64Array([1, 1, 1, 1]), new Uint32Array([4])).build()]) {
      assert.deepEqual([[...built.coords], [...built.starts], [...built.owners]], [[], [0], []]);
    }
  });

  it('gives what chaining each owner alone gives, for many groups one after another', () => {
    let seed = 11;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let round = 0; round < 30; round++) {
      const list: Array<[number, number, number, number, number]> = [];
      const count = 1 + Math.floor(random() * 300);
      for (let i = 0; i < count; i++) {
        // Points on a small grid, so that ends meet; owners few, in any order (sorted in some rounds).
        const p = () => Math.floor(random() * 6) * 0.5;
        list.push([p(), p(), p(), p(), 1 + Math.floor(random() * (round % 5 === 0 ? 2 : 40))]);
      }
      if (round % 3 === 0) list.sort((a, b) => a[4] - b[4]);
      const { segments, owners } = segmentsOf(list);
      const alone = new LinesBuilder();
      for (const owner of [...new Set(owners)].sort((a, b) => a - b)) {
        const own = segmentsOf(list.filter((s) => s[4] === owner));
        chainSegments(own.segments, own.owners, 1e-5, 1e-4, alone);
      }
      assert.deepEqual(lines(chainSegments(segments, owners).build()), lines(alone.build()), `round ${round}`);
    }
  });
});

describe('PointIndex', () => {
  it('gives a cell one id, and after clear() starts again from 0 knowing none of the points before', () => {
    const points = new PointIndex(0.01);
    for (let i = 0; i < 100; i++) assert.equal(points.id(i, -i), i);
    assert.equal(points.id(5.001, -5.002), 5, 'the same cell');
    points.clear();
    assert.equal(points.size, 0);
    assert.equal(points.id(7, -7), 0);
    assert.equal(points.id(3, -3), 1);
    assert.equal(points.id(7, -7), 0);
    assert.deepEqual([points.xs, points.ys], [[7, 3], [-7, -3]]);
  });
});
