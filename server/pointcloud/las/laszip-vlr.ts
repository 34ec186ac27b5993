import { PointCloudError } from '../point-reader.js';

/**
 * The laszip VLR (user "laszip encoded", record 22204): how a LAZ file's points are
 * compressed. laz-perf decodes the chunked compressors of point formats 0-3 (pointwise,
 * items version 2) and 6-8 (layered, items version 3); everything else is refused here,
 * before any decoding, with a message that says which part is not taken.
 */
export const LASZIP_USER = 'laszip encoded';
export const LASZIP_RECORD = 22204;
/** Chunk size meaning "each chunk says its own point count" (COPC). */
export const VARIABLE_CHUNK_SIZE = 0xffffffff;

export interface LaszipItem {
  type: number;
  size: number;
  version: number;
}

export interface Laszip {
  compressor: number;
  coder: number;
  /** Points per chunk, or VARIABLE_CHUNK_SIZE. */
  chunkSize: number;
  items: LaszipItem[];
}

const POINTWISE_CHUNKED = 2;
const LAYERED_CHUNKED = 3;

/** Item types (LASzip's LASitem) and the version laz-perf decodes of each. */
const ITEM_NAMES: Record<number, string> = {
  0: 'extra bytes', 6: 'point 1.0', 7: 'GPS time', 8: 'RGB', 9: 'wave packet', 10: 'point 1.4', 11: 'RGB 1.4', 12: 'RGB+NIR 1.4', 13: 'wave packet 1.4', 14: 'extra bytes 1.4',
};
const POINTWISE_ITEMS = new Set([0, 6, 7, 8]);
const LAYERED_ITEMS = new Set([10, 11, 12, 14]);

export function parseLaszip(data: Uint8Array): Laszip {
  if (data.length < 34) throw new PointCloudError('malformed', 'The laszip record is too short to say how the points are compressed');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint16(32, true);
  if (data.length < 34 + count * 6) throw new PointCloudError('malformed', `The laszip record lists ${count} items but is too short to hold them`);
  const items: LaszipItem[] = [];
  for (let i = 0; i < count; i++) {
    const at = 34 + i * 6;
    items.push({ type: view.getUint16(at, true), size: view.getUint16(at + 2, true), version: view.getUint16(at + 4, true) });
  }
  return { compressor: view.getUint16(0, true), coder: view.getUint16(2, true), chunkSize: view.getUint32(12, true), items };
}

/** Throws unless laz-perf decodes this compression of `format` records of `recordLength` bytes. */
export function checkLaszip(laszip: Laszip, format: number, recordLength: number) {
  const layered = format >= 6;
  if (format === 4 || format === 5 || format > 8) {
    throw new PointCloudError('unsupported', `LAZ with point format ${format} (waveforms) cannot be decoded here; formats 0-3 and 6-8 can`);
  }
  const wanted = layered ? LAYERED_CHUNKED : POINTWISE_CHUNKED;
  if (laszip.compressor !== wanted) {
    const name = laszip.compressor === 1 ? 'pointwise without chunks' : `compressor ${laszip.compressor}`;
    throw new PointCloudError('unsupported', `This LAZ file is compressed ${name}; point format ${format} can be read when compressed ${layered ? 'layered' : 'pointwise'} in chunks`);
  }
  if (laszip.coder !== 0) throw new PointCloudError('unsupported', `This LAZ file uses coder ${laszip.coder}; only the arithmetic coder (0) is known`);
  if (laszip.chunkSize === 0) throw new PointCloudError('malformed', 'The laszip record gives a chunk size of 0 points');
  const known = layered ? LAYERED_ITEMS : POINTWISE_ITEMS;
  const version = layered ? 3 : 2;
  let bytes = 0;
  for (const item of laszip.items) {
    const name = ITEM_NAMES[item.type] ?? `item type ${item.type}`;
    if (!known.has(item.type)) throw new PointCloudError('unsupported', `This LAZ file compresses ${name} fields, which cannot be decoded with point format ${format}`);
    if (item.version !== version) throw new PointCloudError('unsupported', `This LAZ file compresses ${name} fields with version ${item.version} of LASzip's method; version ${version} can be decoded`);
    bytes += item.size;
  }
  if (bytes !== recordLength) {
    throw new PointCloudError('malformed', `The laszip record's fields add up to ${bytes} bytes a point, the header says ${recordLength}`);
  }
}
