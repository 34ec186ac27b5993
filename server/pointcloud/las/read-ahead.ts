import type { ByteSource } from '../byte-source.js';

/**
 * Starts reading the next block while the current one is decoded. If the pass ends before
 * the read is awaited, its failure must not go unhandled (laz-perf, once loaded, makes an
 * unhandled rejection end the process).
 */
export function readAhead(source: ByteSource, offset: number, length: number): Promise<Uint8Array> {
  const read = source.read(offset, length);
  read.catch(() => {});
  return read;
}
