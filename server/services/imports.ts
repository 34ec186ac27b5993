import { Transform, type Readable } from 'node:stream';
import { one, type Database } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { enqueue } from '../jobs/queue.js';
import { findClient } from './clients.js';
import { badRequest, notFound, tooLarge } from './errors.js';
import { modelFor } from './models.js';
import { newId } from './secrets.js';
import { isScan, peek, SNIFF_BYTES, uploadKind } from './upload-kind.js';

/**
 * Imports (seed 000, `PUT /model/import`): the upload streams to blob storage as sent,
 * then one transaction records the import (`running`) and queues its processing
 * (jobs/ifc-import.ts; a scan, E57, LAS or LAZ by its first bytes: jobs/pointcloud-import.ts).
 * The revision appears only when processing succeeds.
 */
export const IMPORT_JOB = 'ifc-import';
export const POINTCLOUD_IMPORT_JOB = 'pointcloud-import';
const OBJECT_ID_STEP = 2 ** 32;

export interface ImportRequest {
  fileName: string;
  comment: string;
  callbackUri?: string;
}

export interface ImportStatus {
  comment: string;
  file_name: string;
  model_id: string;
  project_id: string;
  result: 'running' | 'success' | 'error';
  revision_id?: number;
  /** Why an import failed (an addition to seed 000's shape). */
  error?: string;
}

/**
 * A callback URI must match the application's registered callback URL (seed 000): the
 * same URL, or that URL with a query of its own (the application's way to tell its imports apart).
 */
export function callbackMatches(callback: string, registered: string): boolean {
  let a: URL, b: URL;
  try {
    a = new URL(callback);
    b = new URL(registered);
  } catch {
    return false;
  }
  return a.origin === b.origin && a.pathname === b.pathname && !a.hash && (b.search === '' || a.search === b.search);
}

/** Counts bytes through; fails the stream once there are more than `limit`. */
export function sizeGuard(limit: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) done(tooLarge(`The file is larger than the upload limit of ${limit} bytes`));
      else done(null, chunk);
    },
  });
}

export async function registerImport(
  db: Database,
  blobs: BlobStore,
  user: { userId: string; clientId: string },
  modelId: string,
  request: ImportRequest,
  body: Readable,
  limit: number,
): Promise<string> {
  const model = await modelFor(db, user.userId, modelId);
  if (!request.fileName) throw badRequest('`file_name` is required');
  if (request.callbackUri) {
    const client = await findClient(db, user.clientId);
    if (!client || !callbackMatches(request.callbackUri, client.redirectUri)) {
      throw badRequest('`callback_uri` does not match the registered callback URL of the application');
    }
  }
  const token = newId();
  // The first bytes say what the file is; it is stored under that kind's extension.
  const sniffed = await peek(body, SNIFF_BYTES);
  const kind = uploadKind(sniffed.head, request.fileName);
  const key = `uploads/${model.id}/${token}.${kind}`;
  const guard = sizeGuard(limit);
  sniffed.body.on('error', (error) => guard.destroy(error));
  const size = await blobs.put(key, sniffed.body.pipe(guard));
  if (size === 0) {
    await blobs.delete(key);
    throw badRequest('The request has no body: send the IFC, E57, LAS or LAZ file as the body');
  }
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO imports (token, model_id, user_id, file_name, comment, callback_uri, blob_key, size, object_id_base, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, nextval('object_id_bases') * $9::bigint, 'running')`,
        [token, model.id, user.userId, request.fileName, request.comment, request.callbackUri ?? null, key, size, OBJECT_ID_STEP],
      );
      await enqueue(tx, isScan(kind) ? POINTCLOUD_IMPORT_JOB : IMPORT_JOB, { token });
    });
  } catch (error) {
    await blobs.delete(key);
    throw error;
  }
  return token;
}

export async function importStatus(db: Database, userId: string, token: string): Promise<ImportStatus> {
  const row = await one(
    db,
    `SELECT i.comment, i.file_name, i.model_id, m.project_id, i.result, i.revision_id, i.error FROM imports i
     JOIN models m ON m.id = i.model_id
     JOIN project_members pm ON pm.project_id = m.project_id AND pm.user_id = $2
     WHERE i.token = $1`,
    [token, userId],
  );
  if (!row) throw notFound('Import', token);
  const status: ImportStatus = { comment: row.comment, file_name: row.file_name, model_id: row.model_id, project_id: row.project_id, result: row.result };
  if (row.result === 'success') status.revision_id = row.revision_id;
  if (row.result === 'error') status.error = row.error;
  return status;
}
