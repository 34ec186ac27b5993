import type { ByteSource } from '../byte-source.js';
import { PointCloudError } from '../point-reader.js';
import { BASE_RECORD_LENGTHS } from './point-formats.js';

/**
 * The public header block of LAS 1.0-1.4 (and of LAZ, which keeps it) and the variable
 * length records (VLRs after the header, EVLRs of 1.4 at the end of the file).
 */
export interface LasHeader {
  versionMinor: number;
  globalEncoding: number;
  headerSize: number;
  pointOffset: number;
  vlrCount: number;
  /** Point data record format, 0-10 (compression bits removed). */
  format: number;
  /** The format byte had a compression bit (0x80 or 0x40): LAZ. */
  compressed: boolean;
  recordLength: number;
  /** Exact up to 2^53: the 1.4 header's 64-bit count when the legacy 32-bit one is 0. */
  pointCount: number;
  scale: [number, number, number];
  offset: [number, number, number];
  /** The stated bounds, or null when they are not numbers in order. */
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  /** LAS 1.4 extended records: where they start (0: none) and how many. */
  evlrStart: number;
  evlrCount: number;
}

/** Header sizes by minor version: 1.0-1.2, 1.3 (waveform offset), 1.4 (EVLRs, 64-bit counts). */
const HEADER_SIZE = [227, 227, 227, 235, 375];
/** Enough bytes for any header this reads. */
export const HEADER_READ = 375;
/** Global encoding bit 4: the coordinate system is WKT, not GeoTIFF keys. */
export const WKT_ENCODING = 0x10;

export function parseHeader(bytes: Uint8Array, fileSize: number): LasHeader {
  if (fileSize < HEADER_SIZE[0] || bytes.length < HEADER_SIZE[0]) {
    throw new PointCloudError('truncated', `The file ends after ${fileSize} bytes, inside its LAS header (no points were there)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[24];
  const minor = bytes[25];
  if (major !== 1 || minor > 4) {
    throw new PointCloudError('unsupported', `LAS version ${major}.${minor} cannot be read; versions 1.0 to 1.4 can`);
  }
  const headerSize = view.getUint16(94, true);
  if (fileSize < HEADER_SIZE[minor]) {
    throw new PointCloudError('truncated', `The file ends after ${fileSize} bytes, inside its LAS 1.${minor} header (no points were there)`);
  }
  if (headerSize < HEADER_SIZE[minor]) {
    throw new PointCloudError('malformed', `The header says it is ${headerSize} bytes long; a LAS 1.${minor} header has ${HEADER_SIZE[minor]}`);
  }
  const pointOffset = view.getUint32(96, true);
  if (pointOffset < headerSize) {
    throw new PointCloudError('malformed', `The header puts the points at byte ${pointOffset}, inside the ${headerSize}-byte header`);
  }
  if (pointOffset > fileSize) {
    throw new PointCloudError('malformed', `The header puts the points at byte ${pointOffset}, past the end of the ${fileSize}-byte file`);
  }
  const formatByte = bytes[104];
  // 0x80 is LASzip's compression bit, 0x40 the one some writers set instead; both is an old scheme.
  const compressionBits = formatByte & 0xc0;
  const format = formatByte & 0x3f;
  if (compressionBits === 0xc0) throw new PointCloudError('unsupported', 'The point format byte marks an old LAZ compression that cannot be decoded');
  if (format >= BASE_RECORD_LENGTHS.length) {
    throw new PointCloudError('unsupported', `Point format ${format} cannot be read; LAS point formats 0 to 10 can`);
  }
  const recordLength = view.getUint16(105, true);
  if (recordLength < BASE_RECORD_LENGTHS[format]) {
    throw new PointCloudError('malformed', `The header gives ${recordLength}-byte point records; point format ${format} needs at least ${BASE_RECORD_LENGTHS[format]}`);
  }
  const scale = [view.getFloat64(131, true), view.getFloat64(139, true), view.getFloat64(147, true)] as [number, number, number];
  const offset = [view.getFloat64(155, true), view.getFloat64(163, true), view.getFloat64(171, true)] as [number, number, number];
  if (!scale.every((s) => Number.isFinite(s) && s !== 0) || !offset.every(Number.isFinite)) {
    throw new PointCloudError('malformed', `The header's scale (${scale.join(', ')}) or offset (${offset.join(', ')}) is not usable`);
  }
  // Bounds are stored max x, min x, max y, min y, max z, min z.
  const max = [view.getFloat64(179, true), view.getFloat64(195, true), view.getFloat64(211, true)] as [number, number, number];
  const min = [view.getFloat64(187, true), view.getFloat64(203, true), view.getFloat64(219, true)] as [number, number, number];
  const ordered = [0, 1, 2].every((i) => Number.isFinite(min[i]) && Number.isFinite(max[i]) && min[i] <= max[i]);

  let pointCount = view.getUint32(107, true);
  let evlrStart = 0;
  let evlrCount = 0;
  if (minor >= 4) {
    evlrStart = Number(view.getBigUint64(235, true));
    evlrCount = view.getUint32(243, true);
    if (pointCount === 0) {
      const wide = view.getBigUint64(247, true);
      if (wide > BigInt(Number.MAX_SAFE_INTEGER)) throw new PointCloudError('unsupported', `The header states ${wide} points, more than can be counted exactly (2^53)`);
      pointCount = Number(wide);
    }
  }
  return {
    versionMinor: minor,
    globalEncoding: view.getUint16(6, true),
    headerSize,
    pointOffset,
    vlrCount: view.getUint32(100, true),
    format,
    compressed: compressionBits !== 0,
    recordLength,
    pointCount,
    scale,
    offset,
    bounds: ordered ? { min, max } : null,
    evlrStart,
    evlrCount,
  };
}

/** A VLR or EVLR: who wrote it, what it is, where its data is. */
export interface VariableRecord {
  userId: string;
  recordId: number;
  dataOffset: number;
  dataLength: number;
}

const VLR_HEAD = 54;
const EVLR_HEAD = 60;

/**
 * The records' heads (their data is read when wanted). Records that would run past where
 * they must end (VLRs: the points; EVLRs: the file) are where the list stops: what came
 * before is still good, and the points do not depend on the rest.
 */
export async function readVariableRecords(source: ByteSource, header: LasHeader): Promise<VariableRecord[]> {
  const records: VariableRecord[] = [];
  let at = header.headerSize;
  for (let i = 0; i < header.vlrCount && at + VLR_HEAD <= header.pointOffset; i++) {
    const head = await source.read(at, VLR_HEAD);
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const dataLength = view.getUint16(20, true);
    if (at + VLR_HEAD + dataLength > header.pointOffset) break;
    records.push({ userId: text(head.subarray(2, 18)), recordId: view.getUint16(18, true), dataOffset: at + VLR_HEAD, dataLength });
    at += VLR_HEAD + dataLength;
  }
  if (header.evlrCount > 0 && header.evlrStart >= header.pointOffset) {
    at = header.evlrStart;
    for (let i = 0; i < header.evlrCount && at + EVLR_HEAD <= source.size; i++) {
      const head = await source.read(at, EVLR_HEAD);
      const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
      const dataLength = Number(view.getBigUint64(20, true));
      if (at + EVLR_HEAD + dataLength > source.size) break;
      records.push({ userId: text(head.subarray(2, 18)), recordId: view.getUint16(18, true), dataOffset: at + EVLR_HEAD, dataLength });
      at += EVLR_HEAD + dataLength;
    }
  }
  return records;
}

export function findRecord(records: VariableRecord[], userId: string, recordId: number): VariableRecord | undefined {
  return records.find((r) => r.userId === userId && r.recordId === recordId);
}

/** A NUL-padded ASCII field. */
export function text(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder('latin1').decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}
