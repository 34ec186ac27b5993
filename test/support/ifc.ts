import { IfcClient } from '../../src/core/ifc/ifc-client';
import type { GeometryChunk, OpenResult } from '../../src/core/ifc/protocol';

/**
 * Opens `bytes` in an IFC worker of its own and streams every unit of the model, each
 * chunk to `take` as the page would get it; the worker ends afterwards.
 */
export async function streamModel(bytes: ArrayBuffer, take: (chunk: GeometryChunk, opened: OpenResult) => void): Promise<OpenResult> {
  const client = new IfcClient();
  try {
    const opened = await client.open(1, bytes, '0', null);
    const each = (chunk: GeometryChunk) => take(chunk, opened);
    let origin: [number, number, number] | null = null;
    for (let unit = 0; unit < opened.units; unit++) origin = await client.stream(1, [unit], origin, each);
    await client.endStream(1, each);
    return opened;
  } finally {
    client.dispose();
  }
}

/** Six times the volume a chunk's piece encloses (`r`: its range's index), from its triangles: positive when wound outward. */
export function pieceVolume(chunk: GeometryChunk, r: number): number {
  const { positions: p, indices, ranges } = chunk;
  let volume = 0;
  for (let i = ranges[r + 1]; i < ranges[r + 1] + ranges[r + 2]; i += 3) {
    const [a, b, c] = [indices[i] * 3, indices[i + 1] * 3, indices[i + 2] * 3];
    volume += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) + p[a + 1] * (p[b + 2] * p[c] - p[b] * p[c + 2]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return volume;
}
