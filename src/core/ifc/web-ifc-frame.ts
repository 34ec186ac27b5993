/**
 * A vertex of a placed web-ifc geometry in IFC coordinates: `v[i..i+2]` placed by the
 * column-major matrix `m`, and web-ifc's y-up frame ((x, z, -y) of IFC's) turned back to
 * IFC's z up, in double precision. Written to `out`, which is returned.
 */
export function ifcPoint(v: ArrayLike<number>, i: number, m: ArrayLike<number>, out: Float64Array): Float64Array {
  const x = v[i], y = v[i + 1], z = v[i + 2];
  out[0] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[1] = -(m[2] * x + m[6] * y + m[10] * z + m[14]);
  out[2] = m[1] * x + m[5] * y + m[9] * z + m[13];
  return out;
}
