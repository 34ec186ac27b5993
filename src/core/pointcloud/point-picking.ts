import { Box3, Vector3, type Plane, type Points, type Ray } from 'three';

/** A ray passing within this many pixels of a point picks it. */
export const PICK_PIXELS = 4;

export interface PointHit {
  /** Viewer coordinates. */
  point: Vector3;
  /** How far along the ray (metres). */
  distance: number;
  points: Points;
  index: number;
}

/**
 * The point a pixel shows, on the CPU: among the points the ray passes within
 * `PICK_PIXELS` of, those about as close to the ray as the closest (within a pixel and a
 * half) compete, and the nearest the eye wins, as the front point drawn there would.
 * Nodes whose box (grown by the reach) the ray misses are skipped; points on the cut side
 * of a clipping plane or of a hidden class do not count. `metresPerPixel(depth)` says how
 * wide a pixel is at a depth.
 */
export function pickPoint(ray: Ray, nodes: Points[], metresPerPixel: (depth: number) => number, clipping: Plane[], hiddenClass: (c: number) => boolean): PointHit | null {
  const candidates: { t: number; px: number; points: Points; index: number; point: Vector3 }[] = [];
  const box = new Box3();
  const p = new Vector3();
  const { origin, direction } = ray;
  for (const points of nodes) {
    const geometry = points.geometry;
    if (!geometry.boundingBox) geometry.computeBoundingBox();
    box.copy(geometry.boundingBox!).applyMatrix4(points.matrixWorld);
    const far = box.distanceToPoint(origin) + box.getSize(p).length();
    box.expandByScalar(metresPerPixel(far) * PICK_PIXELS);
    if (!ray.intersectsBox(box)) continue;
    const positions = geometry.getAttribute('position').array as Float32Array;
    const classes = geometry.getAttribute('classification')?.array as Uint8Array | undefined;
    const m = points.matrixWorld.elements;
    for (let i = 0, n = positions.length / 3; i < n; i++) {
      const x = positions[i * 3], y = positions[i * 3 + 1], z = positions[i * 3 + 2];
      // To viewer coordinates (the node's matrix: a placement, maybe scaled or turned), from the eye.
      const wx = m[0] * x + m[4] * y + m[8] * z + m[12] - origin.x;
      const wy = m[1] * x + m[5] * y + m[9] * z + m[13] - origin.y;
      const wz = m[2] * x + m[6] * y + m[10] * z + m[14] - origin.z;
      const t = wx * direction.x + wy * direction.y + wz * direction.z;
      if (t <= 0) continue;
      const pixel = metresPerPixel(t);
      const off = wx * wx + wy * wy + wz * wz - t * t;
      if (off > (pixel * PICK_PIXELS) ** 2) continue;
      if (classes && hiddenClass(classes[i])) continue;
      p.set(wx + origin.x, wy + origin.y, wz + origin.z);
      if (clipping.some((plane) => plane.distanceToPoint(p) < 0)) continue;
      candidates.push({ t, px: Math.sqrt(Math.max(off, 0)) / pixel, points, index: i, point: p.clone() });
    }
  }
  if (candidates.length === 0) return null;
  const closest = Math.min(...candidates.map((c) => c.px));
  let best = candidates[0];
  for (const c of candidates) if (c.px <= closest + 1.5 && (best.px > closest + 1.5 || c.t < best.t)) best = c;
  return { point: best.point, distance: best.t, points: best.points, index: best.index };
}
