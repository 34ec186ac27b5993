import { createCRC32, type IHasher } from 'hash-wasm';

/**
 * CRC-32 (zip's and PNG's), which the scene's records and the plans files carry, through
 * hash-wasm's WebAssembly: on a page that has just opened it checks a 6 MB scene in 5-8 ms,
 * where JavaScript's took 15-25 (its code not optimised yet). The wasm compiles
 * asynchronously: `await checksums()` once before the first `crc32`.
 */
let hasher: IHasher | null = null;
let starting: Promise<void> | null = null;

export function checksums(): Promise<void> {
  starting ??= createCRC32().then((h) => {
    hasher = h;
  });
  return starting;
}

/** The CRC-32 of `parts` one after another. */
export function crc32(...parts: Uint8Array[]): number {
  if (!hasher) throw new Error('crc32() before checksums() resolved');
  hasher.init();
  for (const part of parts) hasher.update(part);
  const d = hasher.digest('binary');
  return ((d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]) >>> 0;
}
