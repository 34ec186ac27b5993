import type { MeshPiece } from './meshes.js';

/**
 * The pieces each storey's plan looks at: those whose heights overlap the band from
 * `below` under its elevation to `above` over it, each list in the pieces' own order.
 * One pass over the pieces, where a pass per storey read every piece's bounds again
 * (office-200k: 50 storeys of 400k pieces; its storeys' plans 4.1-4.5 -> 3.8 s).
 */
export function piecesByStorey(pieces: readonly MeshPiece[], elevations: readonly number[], below: number, above: number): MeshPiece[][] {
  const lists: MeshPiece[][] = elevations.map(() => []);
  // The storeys upwards: their bands are all of one height, so both their bottoms and tops rise.
  const order = elevations.map((_, i) => i).sort((a, b) => elevations[a] - elevations[b] || a - b);
  const tops = order.map((i) => elevations[i] + above);
  for (const piece of pieces) {
    // the lowest band whose top is not under the piece, then up while bands start below its top
    let lo = 0, hi = tops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tops[mid] < piece.minZ) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < order.length && elevations[order[k]] - below <= piece.maxZ; k++) lists[order[k]].push(piece);
  }
  return lists;
}
