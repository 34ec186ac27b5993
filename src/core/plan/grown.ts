type Growable = Float64Array | Int32Array | Uint32Array;

/**
 * A copy of `a` with room for at least `length` values (and at least twice its own):
 * arrays that values are appended to, one by one, without an array per value.
 */
export function grown<T extends Growable>(a: T, length = a.length + 1): T {
  const b = new (a.constructor as { new (length: number): T })(Math.max(length, a.length * 2, 16));
  b.set(a);
  return b;
}
