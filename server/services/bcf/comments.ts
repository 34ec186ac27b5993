import { randomUUID } from 'node:crypto';
import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { checkGuid, isUuid, type Board } from './boards.js';
import { recordEvent } from './topic-events.js';
import { mayDelete, topicRow, type Caller } from './topics.js';
import { bcfDate } from './versions.js';

/**
 * Comments of a topic (seed 001): listed by date, created with an optional viewpoint link
 * (a viewpoint of the same topic) and, in 2.x, a reply link; changed or deleted only by
 * their author or a project admin. 2.0 answers in API 1.0's shape, which wants the topic's
 * `status` on every comment; 3.0 has no replies.
 */
export interface CommentRow {
  guid: string;
  topic_guid: string;
  date: Date;
  author: string;
  comment: string;
  viewpoint_guid: string | null;
  reply_to_comment_guid: string | null;
  modified_date: Date | null;
  modified_author: string | null;
}

const COLUMNS = 'guid, topic_guid, date, author, comment, viewpoint_guid, reply_to_comment_guid, modified_date, modified_author';
const MAX_COMMENT = 100_000;

/** A topic's comment rows, oldest first (the BCF-XML export reads these). */
export function listCommentRows(sql: Sql, boardId: string, topicGuid: string): Promise<CommentRow[]> {
  return sql.query<CommentRow>(`SELECT ${COLUMNS} FROM bcf_comments WHERE board_id = $1 AND topic_guid = $2 ORDER BY date, guid`, [boardId, topicGuid]);
}

/** Writes a comment row as given: guid, dates and authors included (the BCF-XML import writes through this too). */
export async function insertComment(tx: Sql, boardId: string, row: CommentRow): Promise<void> {
  await tx.query(
    `INSERT INTO bcf_comments (board_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [boardId, row.guid, row.topic_guid, row.date, row.author, row.comment, row.viewpoint_guid, row.reply_to_comment_guid, row.modified_date, row.modified_author],
  );
}

async function commentRow(sql: Sql, boardId: string, topicGuid: string, guid: string): Promise<CommentRow> {
  const row = isUuid(guid) ? await one<CommentRow>(sql, `SELECT ${COLUMNS} FROM bcf_comments WHERE board_id = $1 AND topic_guid = $2 AND guid = $3`, [boardId, topicGuid, guid]) : undefined;
  if (!row) throw notFound('Comment', guid);
  return row;
}

/** The comment as the caller's version writes it; `authorization` adds its comment_actions. */
export function commentJson(row: CommentRow, caller: Caller, topicStatus: string | null, board?: Board): Record<string, unknown> {
  const comment: Record<string, unknown> = {
    guid: row.guid,
    date: bcfDate(row.date),
    author: row.author,
    comment: row.comment,
    topic_guid: row.topic_guid,
    ...(caller.version === '2.0' ? { status: topicStatus ?? '' } : {}),
    viewpoint_guid: row.viewpoint_guid ?? undefined,
    reply_to_comment_guid: caller.version === '3.0' ? undefined : row.reply_to_comment_guid ?? undefined,
    modified_date: bcfDate(row.modified_date),
    modified_author: row.modified_author ?? undefined,
  };
  if (board) comment.authorization = { comment_actions: mayDelete(board, caller, row.author) ? ['update', 'delete'] : [] };
  for (const key of Object.keys(comment)) if (comment[key] === undefined) delete comment[key];
  return comment;
}

export async function listComments(sql: Sql, board: Board, caller: Caller, topicGuid: string, authorization: boolean) {
  const topic = await topicRow(sql, board.id, topicGuid);
  const rows = await listCommentRows(sql, board.id, topic.guid);
  return rows.map((row) => commentJson(row, caller, topic.topic_status, authorization ? board : undefined));
}

export async function readComment(sql: Sql, board: Board, caller: Caller, topicGuid: string, guid: string, authorization: boolean) {
  const topic = await topicRow(sql, board.id, topicGuid);
  return commentJson(await commentRow(sql, board.id, topic.guid, guid), caller, topic.topic_status, authorization ? board : undefined);
}

// ---- checks of a body ---------------------------------------------------------------------

type Body = Record<string, unknown>;

function text(body: Body): string {
  if (typeof body.comment !== 'string' || body.comment.length > MAX_COMMENT) throw badRequest(`\`comment\` is required: a string of at most ${MAX_COMMENT} characters`);
  return body.comment;
}

/** An optional link to another row of the topic: null when absent or empty, 400 when it names nothing there. */
async function link(sql: Sql, table: 'bcf_viewpoints' | 'bcf_comments', boardId: string, topicGuid: string, body: Body, key: string): Promise<string | null> {
  const value = body[key];
  if (value === undefined || value === null || value === '') return null;
  const guid = checkGuid(value, key);
  if (!(await one(sql, `SELECT 1 FROM ${table} WHERE board_id = $1 AND topic_guid = $2 AND guid = $3`, [boardId, topicGuid, guid]))) {
    throw badRequest(`\`${key}\` ${guid} is not a ${table === 'bcf_viewpoints' ? 'viewpoint' : 'comment'} of the topic`);
  }
  return guid;
}

// ---- create, update, delete ---------------------------------------------------------------

export async function createComment(db: Database, board: Board, caller: Caller, topicGuid: string, body: Body) {
  return db.transaction(async (tx) => {
    const topic = await topicRow(tx, board.id, topicGuid);
    const guid = body.guid === undefined || body.guid === null ? randomUUID() : checkGuid(body.guid);
    if (await one(tx, 'SELECT 1 FROM bcf_comments WHERE board_id = $1 AND guid = $2', [board.id, guid])) throw conflict(`A comment with the guid ${guid} exists`);
    const row: CommentRow = {
      guid,
      topic_guid: topic.guid,
      date: new Date(),
      author: caller.email,
      comment: text(body),
      viewpoint_guid: await link(tx, 'bcf_viewpoints', board.id, topic.guid, body, 'viewpoint_guid'),
      reply_to_comment_guid: caller.version === '3.0' ? null : await link(tx, 'bcf_comments', board.id, topic.guid, body, 'reply_to_comment_guid'),
      modified_date: null,
      modified_author: null,
    };
    await insertComment(tx, board.id, row);
    await recordEvent(tx, board.id, topic.guid, caller.email, [{ type: 'comment_added', value: guid }], row.date);
    return commentJson(row, caller, topic.topic_status);
  });
}

/** The comment of one that may change it: its author or a project admin (403 for others). */
async function ownComment(sql: Sql, board: Board, caller: Caller, topicGuid: string, guid: string) {
  const topic = await topicRow(sql, board.id, topicGuid);
  const row = await commentRow(sql, board.id, topic.guid, guid);
  if (!mayDelete(board, caller, row.author)) throw forbidden('Only the comment\'s author or a project administrator changes or deletes a comment');
  return { topic, row };
}

/** PUT: a new text; `viewpoint_guid` (and 2.x's reply link) kept when absent, cleared when empty or null. */
export async function updateComment(db: Database, board: Board, caller: Caller, topicGuid: string, guid: string, body: Body) {
  return db.transaction(async (tx) => {
    const { topic, row } = await ownComment(tx, board, caller, topicGuid, guid);
    const keep = (key: 'viewpoint_guid' | 'reply_to_comment_guid', table: 'bcf_viewpoints' | 'bcf_comments') =>
      body[key] === undefined || (key === 'reply_to_comment_guid' && caller.version === '3.0') ? row[key] : link(tx, table, board.id, topic.guid, body, key);
    const next: CommentRow = {
      ...row,
      comment: text(body),
      viewpoint_guid: await keep('viewpoint_guid', 'bcf_viewpoints'),
      reply_to_comment_guid: await keep('reply_to_comment_guid', 'bcf_comments'),
      modified_date: new Date(),
      modified_author: caller.email,
    };
    if (next.reply_to_comment_guid === row.guid) throw badRequest('`reply_to_comment_guid`: a comment does not reply to itself');
    await tx.query(
      'UPDATE bcf_comments SET comment = $3, viewpoint_guid = $4, reply_to_comment_guid = $5, modified_date = $6, modified_author = $7 WHERE board_id = $1 AND guid = $2',
      [board.id, row.guid, next.comment, next.viewpoint_guid, next.reply_to_comment_guid, next.modified_date, next.modified_author],
    );
    return commentJson(next, caller, topic.topic_status);
  });
}

/** DELETE: replies to the comment stay, no longer linked to it. */
export async function deleteComment(db: Database, board: Board, caller: Caller, topicGuid: string, guid: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { row } = await ownComment(tx, board, caller, topicGuid, guid);
    await tx.query('UPDATE bcf_comments SET reply_to_comment_guid = NULL WHERE board_id = $1 AND reply_to_comment_guid = $2', [board.id, row.guid]);
    await tx.query('DELETE FROM bcf_comments WHERE board_id = $1 AND guid = $2', [board.id, row.guid]);
  });
}
