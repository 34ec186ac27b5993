import type { Region } from './distribute.js';

/** A subtree indexed in memory at once: a node of the octree and the grid cells under it. */
export interface Chunk {
  region: Region;
  cells: number[];
  count: number;
}

/**
 * Merges the grid's cells into chunks (PotreeConverter 2's idea): from the region down, a
 * node whose points number at most `maxChunk` becomes a chunk with all the cells under it;
 * a larger one is split into its eight children, down to single cells (which may still be
 * larger: the caller sorts those again, into a finer grid).
 */
export function mergeCells(counts: Float64Array, gridBits: number, region: Region, maxChunk: number): Chunk[] {
  // counts per level: levels[l][(x << 2l) | (y << l) | z]
  const levels: Float64Array[] = [];
  levels[gridBits] = counts;
  for (let l = gridBits - 1; l >= 0; l--) {
    const below = levels[l + 1];
    const here = (levels[l] = new Float64Array(1 << (3 * l)));
    const n = 1 << (l + 1);
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++)
        for (let z = 0; z < n; z++) {
          const v = below[(x << (2 * (l + 1))) | (y << (l + 1)) | z];
          if (v) here[((x >> 1) << (2 * l)) | ((y >> 1) << l) | (z >> 1)] += v;
        }
  }
  const chunks: Chunk[] = [];
  const visit = (l: number, x: number, y: number, z: number, name: string) => {
    const count = levels[l][(x << (2 * l)) | (y << l) | z];
    if (!count) return;
    if (count <= maxChunk || l === gridBits) {
      const span = gridBits - l;
      const cells: number[] = [];
      for (let cx = x << span; cx < (x + 1) << span; cx++)
        for (let cy = y << span; cy < (y + 1) << span; cy++)
          for (let cz = z << span; cz < (z + 1) << span; cz++) {
            const cell = (cx << (2 * gridBits)) | (cy << gridBits) | cz;
            if (counts[cell]) cells.push(cell);
          }
      const bits = region.bits - l;
      const origin: [number, number, number] = [region.origin[0] + x * 2 ** bits, region.origin[1] + y * 2 ** bits, region.origin[2] + z * 2 ** bits];
      chunks.push({ region: { name, origin, bits }, cells, count });
      return;
    }
    for (let c = 0; c < 8; c++) visit(l + 1, 2 * x + ((c >> 2) & 1), 2 * y + ((c >> 1) & 1), 2 * z + (c & 1), name + c);
  };
  visit(0, 0, 0, 0, region.name);
  return chunks;
}
