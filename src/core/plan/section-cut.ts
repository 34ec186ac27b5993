import type { SegmentBuffer } from './chain.js';
import type { MeshPiece } from './meshes.js';

/**
 * The section of meshes by the horizontal plane z = `z`: every triangle that the plane
 * crosses gives one segment. A vertex exactly on the plane counts as above it, so a
 * triangle touching the plane with one corner gives nothing and each crossing is found
 * once; faces lying in the plane give nothing (their neighbours draw their edges).
 * Crossing points are interpolated from the lower to the upper vertex of an edge, so
 * two triangles sharing an edge compute bit-identical points and the segments chain.
 */
export function cutPieces(pieces: readonly MeshPiece[], z: number, kindOf: (owner: number) => number, out: SegmentBuffer[]) {
  for (const piece of pieces) {
    if (piece.minZ > z || piece.maxZ < z) continue;
    const target = out[kindOf(piece.owner)];
    if (target) cutPiece(piece, z, target);
  }
}

export function cutPiece(piece: MeshPiece, z: number, out: SegmentBuffer) {
  const p = piece.positions;
  const idx = piece.indices;
  const owner = piece.owner;
  const hit = [0, 0, 0, 0];
  for (let t = piece.start; t < piece.end; t += 3) {
    const a = idx[t] * 3, b = idx[t + 1] * 3, c = idx[t + 2] * 3;
    const za = p[a + 2], zb = p[b + 2], zc = p[c + 2];
    const ua = za >= z, ub = zb >= z, uc = zc >= z;
    if (ua === ub && ub === uc) continue;
    let n = 0;
    if (ua !== ub) { cross(p, a, b, ua, z, hit, n); n += 2; }
    if (ub !== uc) { cross(p, b, c, ub, z, hit, n); n += 2; }
    if (n < 4 && uc !== ua) { cross(p, c, a, uc, z, hit, n); n += 2; }
    out.add(hit[0], hit[1], hit[2], hit[3], owner);
  }
}

/** The crossing of edge (i, j) with the plane, always computed from its lower end. */
function cross(p: Float64Array, i: number, j: number, iAbove: boolean, z: number, hit: number[], at: number) {
  const lo = iAbove ? j : i, hi = iAbove ? i : j;
  const t = (z - p[lo + 2]) / (p[hi + 2] - p[lo + 2]);
  hit[at] = p[lo] + (p[hi] - p[lo]) * t;
  hit[at + 1] = p[lo + 1] + (p[hi + 1] - p[lo + 1]) * t;
}
