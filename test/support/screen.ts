// Where points of a model show on a viewer: projects IFC coordinates (a sample's truth)
// through the viewer's documented viewpoint, so tests click on known parts of a building
// instead of pixel positions that only happen to hit.
import type { Vec3, Viewpoint } from '../../src/core/types';
import type { Point } from './input';

/** A point given as a Vec3 or as the truth's [x, y, z]. */
export type PointLike = Vec3 | readonly number[];

export const vec3 = (p: PointLike): Vec3 => (Array.isArray(p) ? { x: p[0], y: p[1], z: p[2] } : (p as Vec3));

/**
 * Viewport pixels (unrounded) where the IFC point `p` shows in `el` seen from `viewpoint`,
 * and its depth in front of the camera (metres; negative: behind it).
 */
export function project(el: Element, viewpoint: Viewpoint, p: PointLike): { x: number; y: number; depth: number } {
  const r = el.getBoundingClientRect();
  const { location: o, direction: d, up: u } = viewpoint;
  const q = vec3(p);
  const rel = { x: q.x - o.x, y: q.y - o.y, z: q.z - o.z };
  // Screen axes: right = direction x up; up is the camera's own up (the viewpoint's).
  const right = { x: d.y * u.z - d.z * u.y, y: d.z * u.x - d.x * u.z, z: d.x * u.y - d.y * u.x };
  const dot = (a: Vec3, b: Vec3) => a.x * b.x + a.y * b.y + a.z * b.z;
  const depth = dot(rel, d);
  const aspect = r.width / r.height;
  // Normalised device coordinates (-1..1) of a perspective or an orthographic camera.
  const [sx, sy] = viewpoint.type === 'perspective'
    ? [depth * Math.tan((viewpoint.fov * Math.PI) / 360) * aspect, depth * Math.tan((viewpoint.fov * Math.PI) / 360)]
    : [(viewpoint.viewToWorldScale / 2) * aspect, viewpoint.viewToWorldScale / 2];
  const nx = dot(rel, right) / sx, ny = dot(rel, u) / sy;
  return { x: r.left + ((nx + 1) / 2) * r.width, y: r.top + ((1 - ny) / 2) * r.height, depth };
}

/** The whole viewport pixel where the IFC point `p` shows (for clicks). */
export function screenPoint(el: Element, viewpoint: Viewpoint, p: PointLike): Point {
  const { x, y } = project(el, viewpoint, p);
  return [Math.round(x), Math.round(y)];
}

/** The eight corners of a truth box. */
export function corners(box: { min: readonly number[]; max: readonly number[] }): Vec3[] {
  return Array.from({ length: 8 }, (_, i) => ({
    x: i & 1 ? box.max[0] : box.min[0],
    y: i & 2 ? box.max[1] : box.min[1],
    z: i & 4 ? box.max[2] : box.min[2],
  }));
}
