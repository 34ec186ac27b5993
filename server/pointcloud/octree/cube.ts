import type { Bounds, Vec3 } from '../../../src/core/formats/pointcloud.js';

/**
 * The octree's cube in integer units: positions are stored as `round((p - offset) / scale)`,
 * and the cube spans `2^bits` units on each axis. A power of two makes every node's box an
 * exact integer range (a node at level L spans 2^(bits-L) units), so the cell and child of a
 * point are bit shifts, and the boxes computed in doubles from the metadata match exactly.
 */
export interface OctreeCube {
  offset: Vec3;
  /** One scale for all axes: the octree is a cube in metres too. */
  scale: number;
  /** The cube is 2^bits units on a side (bits <= 31: int32 positions, never negative). */
  bits: number;
}

/** Used when the file keeps floats (E57 floats, generated points): a millimetre. */
export const DEFAULT_SCALE = 0.001;

/**
 * The cube around `bounds`: the file's finest scale (so distinct stored positions stay
 * distinct), else 1 mm, doubled until the cube fits int32. A unit of margin on each side
 * leaves room for bounds a header rounded.
 */
export function octreeCube(bounds: Bounds, fileScale: Vec3 | null): OctreeCube {
  let scale = fileScale ? Math.min(...fileScale.filter((s) => s > 0 && Number.isFinite(s))) : DEFAULT_SCALE;
  if (!(scale > 0 && Number.isFinite(scale))) scale = DEFAULT_SCALE;
  const extent = Math.max(...[0, 1, 2].map((axis) => bounds.max[axis] - bounds.min[axis]), 0);
  // The margin: a unit each side, and then 2 more units so rounding never reaches 2^bits.
  let bits = Math.max(0, Math.ceil(Math.log2(extent / scale + 4)));
  while (bits > 31) {
    scale *= 2;
    bits = Math.max(0, Math.ceil(Math.log2(extent / scale + 4)));
  }
  const offset = bounds.min.map((v) => v - scale) as Vec3;
  return { offset, scale, bits };
}

/** The cube in metres (the metadata's boundingBox, the root node's box). */
export function cubeBounds(cube: OctreeCube): Bounds {
  const edge = 2 ** cube.bits * cube.scale;
  return { min: [...cube.offset], max: cube.offset.map((v) => v + edge) as Vec3 };
}
