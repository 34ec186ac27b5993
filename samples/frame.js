// @ts-check
/**
 * Rigid frames (an origin and three unit axes) for the sample building's truth: where
 * each placement puts things, so a product's bounding box is known exactly.
 */

/** @typedef {[number, number, number]} Vec3 */
/** @typedef {{ min: Vec3, max: Vec3 }} Box */

export class Frame {
  /**
   * @param {Vec3} origin
   * @param {Vec3} [x]
   * @param {Vec3} [y]
   * @param {Vec3} [z]
   */
  constructor(origin, x = [1, 0, 0], y = [0, 1, 0], z = [0, 0, 1]) {
    this.origin = origin;
    this.x = x;
    this.y = y;
    this.z = z;
  }

  /**
   * IfcAxis2Placement3D's frame: z along `axis`, x along `ref` made perpendicular to it.
   * @param {Vec3} location
   * @param {Vec3} [axis]
   * @param {Vec3} [ref]
   */
  static placement(location, axis = [0, 0, 1], ref = [1, 0, 0]) {
    const z = normalize(axis);
    const x = normalize(sub(ref, scale(z, dot(ref, z))));
    return new Frame(location, x, cross(z, x), z);
  }

  /** A point given in this frame, in the parent's coordinates. */
  apply(/** @type {Vec3} */ p) {
    return add(this.origin, this.rotate(p));
  }

  /** A direction given in this frame, in the parent's coordinates. */
  rotate(/** @type {Vec3} */ d) {
    return add(add(scale(this.x, d[0]), scale(this.y, d[1])), scale(this.z, d[2]));
  }

  /** This frame followed by `child` (a frame given in this one). */
  then(/** @type {Frame} */ child) {
    return new Frame(this.apply(child.origin), this.rotate(child.x), this.rotate(child.y), this.rotate(child.z));
  }
}

export const WORLD = new Frame([0, 0, 0]);

/** The box of points, each mapped through `frame`. */
export function boxOf(/** @type {Frame} */ frame, /** @type {Vec3[]} */ points) {
  /** @type {Vec3} */ const min = [Infinity, Infinity, Infinity];
  /** @type {Vec3} */ const max = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    const q = frame.apply(p);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], q[k]);
      max[k] = Math.max(max[k], q[k]);
    }
  }
  return { min, max };
}

/** The box around several boxes, or null when there are none. */
export function unionOf(/** @type {(Box | null)[]} */ boxes) {
  const present = /** @type {Box[]} */ (boxes.filter(Boolean));
  if (present.length === 0) return null;
  return boxOf(WORLD, present.flatMap((b) => [b.min, b.max]));
}

/**
 * The corners of a profile (x, y pairs in the profile's plane) swept `depth` along the
 * position frame's z: what an IfcExtrudedAreaSolid with ExtrudedDirection (0,0,1) covers.
 * @param {Frame} position
 * @param {[number, number][]} profile
 * @param {number} depth
 * @returns {Vec3[]}
 */
export function extrusionCorners(position, profile, depth) {
  return profile.flatMap(([x, y]) => [position.apply([x, y, 0]), position.apply([x, y, depth])]);
}

/** A rectangle's corners centred on (cx, cy). @returns {[number, number][]} */
export function rectangle(/** @type {number} */ cx, /** @type {number} */ cy, /** @type {number} */ width, /** @type {number} */ height) {
  return [[cx - width / 2, cy - height / 2], [cx + width / 2, cy - height / 2], [cx + width / 2, cy + height / 2], [cx - width / 2, cy + height / 2]];
}

/** The area of a simple polygon (x, y pairs), positive when counter-clockwise. */
export function polygonArea(/** @type {[number, number][]} */ points) {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[(i + 1) % points.length];
    sum += x0 * y1 - x1 * y0;
  }
  return sum / 2;
}

const add = (/** @type {Vec3} */ a, /** @type {Vec3} */ b) => /** @type {Vec3} */ ([a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
const sub = (/** @type {Vec3} */ a, /** @type {Vec3} */ b) => /** @type {Vec3} */ ([a[0] - b[0], a[1] - b[1], a[2] - b[2]]);
const scale = (/** @type {Vec3} */ a, /** @type {number} */ s) => /** @type {Vec3} */ ([a[0] * s, a[1] * s, a[2] * s]);
const dot = (/** @type {Vec3} */ a, /** @type {Vec3} */ b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (/** @type {Vec3} */ a, /** @type {Vec3} */ b) => /** @type {Vec3} */ ([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]);
function normalize(/** @type {Vec3} */ a) {
  const length = Math.hypot(a[0], a[1], a[2]);
  return scale(a, 1 / length);
}
