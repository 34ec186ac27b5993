import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expressIdOf, objectId } from '../../../src/core/data/object-ids.js';

/**
 * objectId (core/data/object-ids.ts) adds an express id to a model's base, exactly past
 * 2^53 too (seed 000's object ids are int64; a Number sum, tried for speed, was slower and
 * would round there): every case against BigInt's sum, on both sides of 2^53.
 */
describe('objectId', () => {
  const exact = (base: string, id: number) => (BigInt(base) + BigInt(id)).toString();
  const edge = 2n ** 53n;
  const bases = ['0', '4294967296', '8589934592', '1099511627776', String(edge - 2n ** 32n), String(edge - 2n), String(edge - 1n), String(edge), String(edge + 1n), '9223372032559808512'];

  it('gives the exact decimal sum on every side of 2^53', () => {
    for (const base of bases) for (const id of [0, 1, 2, 3, 1735, 2147483647]) assert.equal(objectId(base, id), exact(base, id), `${base} + ${id}`);
  });

  it('is undone by expressIdOf', () => {
    for (const base of bases.slice(1)) for (const id of [1, 1735, 2147483647]) assert.equal(expressIdOf(base, objectId(base, id)), id, `${base} + ${id}`);
  });
});
