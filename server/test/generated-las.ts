/** Generated scans for the server's tests (no file of the point clouds folder needed). */

/** A LAS 1.2 file of point format 0 with `count` points on a 100 m cube (records: 20 bytes). `claimed` lies about the count. */
export function makeLas(count: number, claimed = count): Buffer {
  const head = 227;
  const bytes = Buffer.alloc(head + count * 20);
  bytes.write('LASF', 0, 'latin1');
  bytes[24] = 1;
  bytes[25] = 2;
  bytes.writeUInt16LE(head, 94);
  bytes.writeUInt32LE(head, 96);
  bytes[104] = 0;
  bytes.writeUInt16LE(20, 105);
  bytes.writeUInt32LE(claimed, 107);
  for (let i = 0; i < 3; i++) bytes.writeDoubleLE(0.001, 131 + 8 * i); // scale
  // offsets (155..) stay 0; bounds: max x, min x, max y, min y, max z, min z
  [100, 0, 100, 0, 100, 0].forEach((v, i) => bytes.writeDoubleLE(v, 179 + 8 * i));
  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0, at = head; i < count; i++, at += 20) {
    for (let k = 0; k < 3; k++) bytes.writeInt32LE(Math.floor(random() * 100_000), at + 4 * k);
    bytes.writeUInt16LE(i % 65536, at + 12);
    bytes[at + 15] = 2;
  }
  return bytes;
}
