import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStore } from '../../storage/blobs.js';
import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, notFound } from '../errors.js';
import { sizeGuard } from '../imports.js';
import { isUuid, type Board } from './boards.js';

/**
 * Documents of a board (seed 001, [3.0]): files uploaded as the request's body, streamed to
 * the blob store (never held whole), listed by guid and file name, downloaded as sent.
 * Topics point at them through document references.
 */

/** Largest document (bytes), unless the server's upload limit (MAX_UPLOAD_BYTES) is lower: 413 beyond. */
export const DOCUMENT_MAX_BYTES = 200 * 1024 * 1024;

export interface DocumentRow {
  guid: string;
  filename: string;
  description: string | null;
  blob_key: string;
  size: number;
}

const documentKey = (boardId: string, guid: string) => `bcf/${boardId}/documents/${guid}`;

/** A board's document rows, oldest first (the BCF-XML export reads these; bytes with readDocument). */
export function listDocumentRows(sql: Sql, boardId: string): Promise<DocumentRow[]> {
  return sql.query<DocumentRow>('SELECT guid, filename, description, blob_key, size FROM bcf_documents WHERE board_id = $1 ORDER BY created_at, guid', [boardId]);
}

export const readDocument = (blobs: BlobStore, row: DocumentRow): Promise<Buffer> => blobs.read(row.blob_key);

/** A file name as kept: no control characters, no folders, at most 255 characters (400 otherwise). */
export function checkFilename(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('The document needs a file name: the query parameter `filename` or a Content-Disposition header with `filename`');
  if (value.length > 255 || /[\u0000-\u001f\u007f/\\]/.test(value)) throw badRequest('`filename` must be a file name of at most 255 characters, without folders or control characters');
  return value;
}

/**
 * Writes a document as given (guid included) from a stream, at most `limit` bytes (413
 * beyond, nothing kept). The BCF-XML import writes through this too, inside its transaction.
 */
export async function insertDocument(tx: Sql, blobs: BlobStore, boardId: string, doc: { guid: string; filename: string; description?: string | null }, body: Readable | Buffer, limit = DOCUMENT_MAX_BYTES): Promise<DocumentRow> {
  const filename = checkFilename(doc.filename);
  const key = documentKey(boardId, doc.guid);
  const guard = sizeGuard(limit);
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
  source.on('error', (error) => guard.destroy(error));
  const size = await blobs.put(key, source.pipe(guard));
  const row: DocumentRow = { guid: doc.guid, filename, description: doc.description ?? null, blob_key: key, size };
  try {
    await tx.query('INSERT INTO bcf_documents (board_id, guid, filename, description, blob_key, size) VALUES ($1, $2, $3, $4, $5, $6)', [boardId, row.guid, row.filename, row.description, key, size]);
  } catch (error) {
    await blobs.delete(key);
    throw error;
  }
  return row;
}

export const documentJson = (row: DocumentRow) => ({ guid: row.guid, filename: row.filename });

export async function listDocuments(sql: Sql, board: Board) {
  return (await listDocumentRows(sql, board.id)).map(documentJson);
}

export async function documentRow(sql: Sql, boardId: string, guid: string): Promise<DocumentRow> {
  const row = isUuid(guid) ? await one<DocumentRow>(sql, 'SELECT guid, filename, description, blob_key, size FROM bcf_documents WHERE board_id = $1 AND guid = $2', [boardId, guid.toLowerCase()]) : undefined;
  if (!row) throw notFound('Document', guid);
  return row;
}

/** POST .../documents: the body is the file; an empty one is refused. */
export async function createDocument(db: Database, blobs: BlobStore, board: Board, filename: unknown, body: Readable, limit: number) {
  const name = checkFilename(filename);
  const row = await insertDocument(db, blobs, board.id, { guid: randomUUID(), filename: name }, body, Math.min(limit, DOCUMENT_MAX_BYTES));
  if (row.size === 0) {
    await db.query('DELETE FROM bcf_documents WHERE board_id = $1 AND guid = $2', [board.id, row.guid]);
    await blobs.delete(row.blob_key);
    throw badRequest('The request has no body: send the document\'s content as the body');
  }
  return documentJson(row);
}

// ---- downloads ---------------------------------------------------------------------------------

/** Content types by extension; anything else (HTML and SVG too: they would run as pages of ours) is a plain download. */
const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.bcf': 'application/zip',
  '.bcfzip': 'application/zip',
  '.ifc': 'application/x-step',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.doc': 'application/msword',
  '.xls': 'application/vnd.ms-excel',
  '.dwg': 'application/acad',
};

export const contentTypeOf = (filename: string) => CONTENT_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream';

/** `attachment` with an ASCII fallback name and the exact one in RFC 5987's `filename*`. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The file name a Content-Disposition header gives (`filename*=UTF-8''...` before `filename="..."`), if any. */
export function filenameOfDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      throw badRequest('Content-Disposition: `filename*` is not valid percent-encoded UTF-8');
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  return plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2].trim()) : undefined;
}
