import type { PlanLines } from './protocol.js';

/**
 * Plane geometry of footprints: rings are closed polylines (first point repeated at
 * the end) packed in PlanLines; counter-clockwise rings are outlines, clockwise ones
 * holes, and a point is inside when the rings wind around it (non-zero rule).
 */

/** Signed area of a closed ring of flat x, y pairs (positive counter-clockwise). */
export function signedArea(ring: ArrayLike<number>, offset = 0, end = ring.length): number {
  // Relative to the first point: products of georeferenced coordinates (millions of metres)
  // would cancel away the square centimetres.
  const x0 = ring[offset], y0 = ring[offset + 1];
  let sum = 0;
  for (let i = offset; i + 3 < end; i += 2) sum += (ring[i] - x0) * (ring[i + 3] - y0) - (ring[i + 2] - x0) * (ring[i + 1] - y0);
  return sum / 2;
}

/** Total area of the rings (outlines minus holes). */
export function ringsArea(rings: PlanLines): number {
  let area = 0;
  for (let i = 0; i < rings.owners.length; i++) area += signedArea(rings.coords, rings.starts[i] * 2, rings.starts[i + 1] * 2);
  return area;
}

/** Winding number of the rings around (x, y); non-zero means inside. */
export function winding(rings: PlanLines, x: number, y: number): number {
  const c = rings.coords;
  let w = 0;
  for (let r = 0; r < rings.owners.length; r++) {
    const end = rings.starts[r + 1] * 2;
    for (let i = rings.starts[r] * 2; i + 3 < end; i += 2) {
      const x1 = c[i], y1 = c[i + 1], x2 = c[i + 2], y2 = c[i + 3];
      if (y1 <= y) {
        if (y2 > y && (x2 - x1) * (y - y1) - (x - x1) * (y2 - y1) > 0) w++;
      } else if (y2 <= y && (x2 - x1) * (y - y1) - (x - x1) * (y2 - y1) < 0) {
        w--;
      }
    }
  }
  return w;
}

export function contains(rings: PlanLines, x: number, y: number): boolean {
  return winding(rings, x, y) !== 0;
}

/** min x, min y, max x, max y of all points (NaN when there are none). */
export function linesBounds(lines: PlanLines, into = new Float64Array(4).fill(NaN)): Float64Array {
  const c = lines.coords;
  for (let i = 0; i < c.length; i += 2) {
    const x = c[i], y = c[i + 1];
    if (!(into[0] <= x)) into[0] = x;
    if (!(into[1] <= y)) into[1] = y;
    if (!(into[2] >= x)) into[2] = x;
    if (!(into[3] >= y)) into[3] = y;
  }
  return into;
}

/** labelPoint's crossings of one line: x, and the ring's direction there. */
const crossX: number[] = [];
const crossDir: number[] = [];

/**
 * A point well inside the rings for a label: the middle of the widest inside stretch
 * along a few horizontal lines through the footprint (the centroid when that is inside
 * and not near an edge would often be the same; this also works for L and U shapes).
 */
export function labelPoint(rings: PlanLines, bounds: Float64Array): [number, number] {
  const [minX, minY, maxX, maxY] = bounds;
  if (!Number.isFinite(minX)) return [0, 0];
  let best: [number, number] = [(minX + maxX) / 2, (minY + maxY) / 2];
  let bestScore = -Infinity;
  const c = rings.coords;
  for (const f of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
    const y = minY + (maxY - minY) * f;
    // The crossings of the line at y, in two arrays kept between calls and put in order by
    // insertion (a few per line): a pair array per crossing, sorted by a comparator, made
    // 40 MB of office-20k's plans' garbage.
    let n = 0;
    for (let r = 0; r < rings.owners.length; r++) {
      const end = rings.starts[r + 1] * 2;
      for (let i = rings.starts[r] * 2; i + 3 < end; i += 2) {
        const x1 = c[i], y1 = c[i + 1], x2 = c[i + 2], y2 = c[i + 3];
        if ((y1 <= y) === (y2 <= y)) continue;
        const x = x1 + ((y - y1) / (y2 - y1)) * (x2 - x1), dir = y2 > y1 ? 1 : -1;
        let k = n++;
        for (; k > 0 && crossX[k - 1] > x; k--) {
          crossX[k] = crossX[k - 1];
          crossDir[k] = crossDir[k - 1];
        }
        crossX[k] = x;
        crossDir[k] = dir;
      }
    }
    let w = 0;
    for (let i = 0; i + 1 < n; i++) {
      w += crossDir[i];
      if (w === 0) continue;
      const width = crossX[i + 1] - crossX[i];
      // Prefer wide stretches near the middle height.
      const score = width - Math.abs(f - 0.5) * (maxY - minY) * 0.5;
      if (score > bestScore) {
        bestScore = score;
        best = [(crossX[i] + crossX[i + 1]) / 2, y];
      }
    }
  }
  return best;
}
