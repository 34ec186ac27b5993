import type { ByteSource } from '../byte-source.js';
import { findRecord, WKT_ENCODING, type LasHeader, type VariableRecord } from './las-header.js';

/**
 * The coordinate system a LAS file states: OGC WKT (LASF_Projection 2112) or GeoTIFF keys
 * (LASF_Projection 34735) reduced to their EPSG code. When a file has both, the global
 * encoding's WKT bit says which one it means (LAS 1.4); without it the keys win, as LAS
 * 1.0-1.3 readers only knew those.
 */
const USER = 'LASF_Projection';
const WKT_RECORD = 2112;
const GEOKEYS_RECORD = 34735;
const PROJECTED_CS_KEY = 3072;
const GEOGRAPHIC_CS_KEY = 2048;
/** GeoTIFF's "user-defined": no EPSG code. */
const USER_DEFINED = 32767;
/** A WKT longer than this is not one. */
const MAX_WKT = 1 << 20;

export async function readProjection(source: ByteSource, header: LasHeader, records: VariableRecord[]): Promise<string> {
  const wkt = await readWkt(source, findRecord(records, USER, WKT_RECORD));
  const epsg = await readEpsg(source, findRecord(records, USER, GEOKEYS_RECORD));
  if (wkt && (header.globalEncoding & WKT_ENCODING || !epsg)) return wkt;
  return epsg;
}

async function readWkt(source: ByteSource, record: VariableRecord | undefined): Promise<string> {
  if (!record || record.dataLength === 0 || record.dataLength > MAX_WKT) return '';
  const bytes = await source.read(record.dataOffset, record.dataLength);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}

/** `EPSG:n` from the key directory: the projected system, else the geographic one. */
async function readEpsg(source: ByteSource, record: VariableRecord | undefined): Promise<string> {
  if (!record || record.dataLength < 8) return '';
  const bytes = await source.read(record.dataOffset, record.dataLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keys = view.getUint16(6, true);
  const codes = new Map<number, number>();
  for (let i = 0; i < keys && 8 + i * 8 + 8 <= bytes.length; i++) {
    const at = 8 + i * 8;
    // Location 0: the value is in the entry itself (codes always are).
    if (view.getUint16(at + 2, true) === 0) codes.set(view.getUint16(at, true), view.getUint16(at + 6, true));
  }
  for (const key of [PROJECTED_CS_KEY, GEOGRAPHIC_CS_KEY]) {
    const code = codes.get(key);
    if (code && code !== USER_DEFINED) return `EPSG:${code}`;
  }
  return '';
}
