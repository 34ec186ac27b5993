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
