import { randomUUID } from 'node:crypto';
import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { checkGuid, isUuid, type Board } from './boards.js';
import { topicRow } from './topics.js';

/**
 * Document references of a topic (seed 001, [3.0]): each points either at a document of
 * the board (`document_guid`) or at a URL, never both, with an optional description.
 */
export interface DocumentReferenceRow {
  guid: string;
  topic_guid: string;
  document_guid: string | null;
  url: string | null;
  description: string | null;
}

const COLUMNS = 'guid, topic_guid, document_guid, url, description';

/** A topic's document reference rows (the BCF-XML export reads these). */
export function listDocumentReferenceRows(sql: Sql, boardId: string, topicGuid: string): Promise<DocumentReferenceRow[]> {
  return sql.query<DocumentReferenceRow>(`SELECT ${COLUMNS} FROM bcf_document_references WHERE board_id = $1 AND topic_guid = $2 ORDER BY guid`, [boardId, topicGuid]);
}

/** Writes a reference as given (the BCF-XML import writes through this too); exactly one of document_guid and url. */
export async function insertDocumentReference(tx: Sql, boardId: string, row: DocumentReferenceRow): Promise<void> {
  await tx.query(`INSERT INTO bcf_document_references (board_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [boardId, row.guid, row.topic_guid, row.document_guid, row.url, row.description]);
}

export const documentReferenceJson = (row: DocumentReferenceRow) => ({
  guid: row.guid,
  ...(row.document_guid ? { document_guid: row.document_guid } : { url: row.url! }),
  ...(row.description === null ? {} : { description: row.description }),
});

export async function listDocumentReferences(sql: Sql, board: Board, topicGuid: string) {
  const topic = await topicRow(sql, board.id, topicGuid);
  return (await listDocumentReferenceRows(sql, board.id, topic.guid)).map(documentReferenceJson);
}

type Body = Record<string, unknown>;
const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The target and description of a body: a document of the board XOR a URL. */
async function target(sql: Sql, boardId: string, body: Body): Promise<Pick<DocumentReferenceRow, 'document_guid' | 'url' | 'description'>> {
  if (given(body.document_guid) === given(body.url)) throw badRequest('A document reference names either `document_guid` or `url`: one of them, not both');
  if (body.description !== undefined && body.description !== null && (typeof body.description !== 'string' || body.description.length > 10_000)) throw badRequest('`description` must be a string of at most 10000 characters');
  const description = (body.description as string | undefined) ?? null;
  if (given(body.url)) {
    if (typeof body.url !== 'string' || body.url.length > 2048) throw badRequest('`url` must be a string of at most 2048 characters');
    return { document_guid: null, url: body.url, description };
  }
  const document = checkGuid(body.document_guid, 'document_guid');
  if (!(await one(sql, 'SELECT 1 FROM bcf_documents WHERE board_id = $1 AND guid = $2', [boardId, document]))) throw badRequest(`\`document_guid\` ${document} is not a document of the board`);
  return { document_guid: document, url: null, description };
}

export async function createDocumentReference(db: Database, board: Board, topicGuid: string, body: Body) {
  return db.transaction(async (tx) => {
    const topic = await topicRow(tx, board.id, topicGuid);
    const guid = given(body.guid) ? checkGuid(body.guid) : randomUUID();
    if (await one(tx, 'SELECT 1 FROM bcf_document_references WHERE board_id = $1 AND guid = $2', [board.id, guid])) throw conflict(`A document reference with the guid ${guid} exists`);
    const row = { guid, topic_guid: topic.guid, ...(await target(tx, board.id, body)) };
    await insertDocumentReference(tx, board.id, row);
    return documentReferenceJson(row);
  });
}

async function referenceRow(sql: Sql, boardId: string, topicGuid: string, guid: string): Promise<DocumentReferenceRow> {
  const topic = await topicRow(sql, boardId, topicGuid);
  const row = isUuid(guid) ? await one<DocumentReferenceRow>(sql, `SELECT ${COLUMNS} FROM bcf_document_references WHERE board_id = $1 AND topic_guid = $2 AND guid = $3`, [boardId, topic.guid, guid.toLowerCase()]) : undefined;
  if (!row) throw notFound('Document reference', guid);
  return row;
}

/** PUT replaces the target and description. */
export async function updateDocumentReference(db: Database, board: Board, topicGuid: string, guid: string, body: Body) {
  return db.transaction(async (tx) => {
    const row = { ...(await referenceRow(tx, board.id, topicGuid, guid)), ...(await target(tx, board.id, body)) };
    await tx.query('UPDATE bcf_document_references SET document_guid = $3, url = $4, description = $5 WHERE board_id = $1 AND guid = $2', [board.id, row.guid, row.document_guid, row.url, row.description]);
    return documentReferenceJson(row);
  });
}

export async function deleteDocumentReference(sql: Sql, board: Board, topicGuid: string, guid: string): Promise<void> {
  const row = await referenceRow(sql, board.id, topicGuid, guid);
  await sql.query('DELETE FROM bcf_document_references WHERE board_id = $1 AND guid = $2', [board.id, row.guid]);
}
