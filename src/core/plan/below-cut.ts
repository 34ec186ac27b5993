import type { SegmentBuffer } from './chain.js';
import type { MeshPiece } from './meshes.js';

/**
 * What lies below the section plane, seen from above: the drawing edges of every mesh
 * between `low` (just under the storey's floor) and `high` (the cut), clipped to that
 * slab of space and projected onto the plan. Edges that project to (nearly) a point,
 * such as vertical ones, are left out.
 */
export function belowPieces(pieces: readonly MeshPiece[], low: number, high: number, include: (owner: number) => boolean, out: SegmentBuffer, minLength = 1e-3) {
  const min2 = minLength * minLength;
  for (const piece of pieces) {
    if (piece.maxZ < low || piece.minZ > high || piece.edges.length === 0 || !include(piece.owner)) continue;
    const p = piece.positions;
    const e = piece.edges;
    const base = piece.base;
    for (let k = 0; k < e.length; k += 2) {
      const a = base + e[k] * 3, b = base + e[k + 1] * 3;
      let x1 = p[a], y1 = p[a + 1], z1 = p[a + 2];
      let x2 = p[b], y2 = p[b + 1], z2 = p[b + 2];
      if ((z1 < low && z2 < low) || (z1 > high && z2 > high)) continue;
      // Clip to low <= z <= high (inline: a closure made per edge cost more than the clipping).
      if (z1 !== z2) {
        const below1 = !(z1 >= low), below2 = !(z2 >= low);
        if (below1 && below2) continue;
        if (below1 || below2) {
          const t = (low - z1) / (z2 - z1);
          const x = x1 + (x2 - x1) * t, y = y1 + (y2 - y1) * t;
          if (below1) { x1 = x; y1 = y; z1 = low; } else { x2 = x; y2 = y; z2 = low; }
        }
        const above1 = !(z1 <= high), above2 = !(z2 <= high);
        if (above1 && above2) continue;
        if (above1 || above2) {
          const t = (high - z1) / (z2 - z1);
          const x = x1 + (x2 - x1) * t, y = y1 + (y2 - y1) * t;
          if (above1) { x1 = x; y1 = y; z1 = high; } else { x2 = x; y2 = y; z2 = high; }
        }
      }
      const dx = x2 - x1, dy = y2 - y1;
      if (dx * dx + dy * dy < min2) continue;
      out.add(x1, y1, x2, y2, piece.owner);
    }
  }
}
