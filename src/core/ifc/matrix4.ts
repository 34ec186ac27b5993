/**
 * Column-major 4x4 matrices as plain arrays, as web-ifc gives them (GetWorldTransformMatrix,
 * flatTransformation): the little the worker needs to place what web-ifc does not place
 * itself (grid axes, door plan symbols). The page uses three's Matrix4 instead.
 */
export type Matrix4 = number[];

export const IDENTITY: Matrix4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The frame of an IfcAxis2Placement: `z` the axis, `x` the reference direction made perpendicular to it. */
export function axisMatrix(origin: number[], z: number[], x: number[]): Matrix4 {
  const d = x[0] * z[0] + x[1] * z[1] + x[2] * z[2];
  const xx = normalise([x[0] - d * z[0], x[1] - d * z[1], x[2] - d * z[2]], [1, 0, 0]);
  const y = cross(z, xx);
  return [xx[0], xx[1], xx[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, origin[0] ?? 0, origin[1] ?? 0, origin[2] ?? 0, 1];
}

export function multiply(a: Matrix4, b: Matrix4): Matrix4 {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return out;
}

/** Inverse of a rotation + translation matrix. */
export function invertRigid(m: Matrix4): Matrix4 {
  const r = [m[0], m[4], m[8], 0, m[1], m[5], m[9], 0, m[2], m[6], m[10], 0];
  const t = [m[12], m[13], m[14]];
  return [...r, -(r[0] * t[0] + r[4] * t[1] + r[8] * t[2]), -(r[1] * t[0] + r[5] * t[1] + r[9] * t[2]), -(r[2] * t[0] + r[6] * t[1] + r[10] * t[2]), 1];
}

export function apply(m: ArrayLike<number>, x: number, y: number, z: number): [number, number, number] {
  return [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
}

export function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function normalise(v: number[], fallback: number[]): number[] {
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 1e-12 ? [v[0] / length, v[1] / length, v[2] / length] : fallback;
}
