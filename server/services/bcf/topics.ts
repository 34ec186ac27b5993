import { randomUUID } from 'node:crypto';
import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { checkGuid, isUuid, type Board } from './boards.js';
import { allowedValues, type AllowedValues } from './extensions.js';
import { changes, recordEvent } from './topic-events.js';
import { filterCondition, orderBy, selectNames } from './topic-filter.js';
import { bcfDate, parseBcfDate, type BcfVersion } from './versions.js';
import { TOPIC_VALUES_COLUMN, writeTopicValues, type TopicValue } from '../v2/topic-values.js';

/**
 * Topics (seed 001): created with the create-topic table's defaults and checks, replaced
 * by PUT, listed with OData. Every value that names a status, type, label, priority,
 * stage or user must be one of the board's linked extension values (400 listing them).
 */

/** Who is asking, and in which version of the API (the shapes differ). */
export interface Caller {
  userId: string;
  email: string;
  version: BcfVersion;
}

export interface TopicRow {
  guid: string;
  issue_number: number;
  topic_type: string | null;
  topic_status: string | null;
  reference_links: string[];
  title: string;
  index: number | null;
  labels: string[];
  creation_date: Date;
  creation_author: string;
  modified_date: Date | null;
  modified_author: string | null;
  assigned_to: string | null;
  description: string | null;
  due_date: Date | null;
  stage: string | null;
  priority: string | null;
  bim_snippet: BimSnippet | null;
  requester: PlatformPerson | null;
  imported_by: string | null;
  imported_at: Date | null;
  comments: number;
  /** The values of the board's enabled custom fields (services/v2/topic-values.ts). */
  custom_values: TopicValue[];
}

interface BimSnippet {
  snippet_type: string;
  is_external: boolean;
  reference: string;
  reference_schema: string;
}

/** platform_assigned_to / platform_requester: `{user: {ref, email, name}, team: {...} | null}`. */
interface PlatformPerson {
  user: { ref: string | null; email: string; name: string } | null;
  team: { ref: string | null; email: string; name: string } | null;
}

const COLUMNS = `t.guid, t.issue_number, t.topic_type, t.topic_status, t.reference_links, t.title, t.index, t.labels, t.creation_date,
  t.creation_author, t.modified_date, t.modified_author, t.assigned_to, t.description, t.due_date, t.stage, t.priority, t.bim_snippet,
  t.requester, t.imported_by, t.imported_at, (SELECT count(*)::int FROM bcf_comments c WHERE c.board_id = t.board_id AND c.topic_guid = t.guid) AS comments,
  ${TOPIC_VALUES_COLUMN}`;

export const TOPIC_ACTIONS = ['update', 'updateBimSnippet', 'updateRelatedTopics', 'updateDocumentReferences', 'updateFiles', 'createComment', 'createViewpoint', 'delete'];

/** Members may do everything but delete others' topics, which takes the project's admin role. */
export const mayDelete = (board: Board, caller: Caller, author: string) => board.role === 'admin' || author.toLowerCase() === caller.email.toLowerCase();

export function topicActions(board: Board, caller: Caller, row: { creation_author: string }): string[] {
  return TOPIC_ACTIONS.filter((action) => action !== 'delete' || mayDelete(board, caller, row.creation_author));
}

/** Members by e-mail (lower case), for platform_assigned_to. */
export type People = Map<string, { id: string; email: string; name: string }>;

export async function peopleOf(sql: Sql, projectId: string): Promise<People> {
  const rows = await sql.query<{ id: string; email: string; name: string }>('SELECT u.id, u.email, u.name FROM users u JOIN project_members m ON m.user_id = u.id WHERE m.project_id = $1', [projectId]);
  return new Map(rows.map((r) => [r.email.toLowerCase(), r]));
}

function person(people: People, id: string | null): PlatformPerson | undefined {
  if (!id) return undefined;
  const member = people.get(id.toLowerCase());
  return { user: member ? { ref: member.id, email: member.email, name: member.name } : { ref: null, email: id, name: id }, team: null };
}

/** A topic as the version asks for it: absent values left out, 2.0 with its single reference_link, 3.0 with server_assigned_id. */
export function topicJson(row: TopicRow, caller: Caller, people: People, authorization?: { board: Board; statuses: string[] }): Record<string, unknown> {
  const topic: Record<string, unknown> = {
    guid: row.guid,
    ...(caller.version === '3.0' ? { server_assigned_id: String(row.issue_number) } : {}),
    topic_type: row.topic_type ?? undefined,
    topic_status: row.topic_status ?? undefined,
    reference_links: row.reference_links,
    ...(caller.version === '2.0' && row.reference_links.length ? { reference_link: row.reference_links[0] } : {}),
    title: row.title,
    priority: row.priority ?? undefined,
    index: row.index ?? undefined,
    labels: row.labels,
    creation_date: bcfDate(row.creation_date),
    creation_author: row.creation_author,
    modified_date: bcfDate(row.modified_date),
    modified_author: row.modified_author ?? undefined,
    assigned_to: row.assigned_to ?? undefined,
    description: row.description ?? undefined,
    ...(caller.version !== '2.0' ? { stage: row.stage ?? undefined, due_date: bcfDate(row.due_date), platform_issue_number: row.issue_number } : {}),
    bim_snippet: row.bim_snippet ?? undefined,
    platform_assigned_to: person(people, row.assigned_to),
    platform_requester: row.requester ?? undefined,
    platform_imported_by: row.imported_by ?? undefined,
    platform_imported_at: bcfDate(row.imported_at),
    platform_comments_size: row.comments,
    platform_custom_fields: row.custom_values,
  };
  if (authorization) topic.authorization = { topic_actions: topicActions(authorization.board, caller, row), topic_status: authorization.statuses };
  for (const key of Object.keys(topic)) if (topic[key] === undefined) delete topic[key];
  return topic;
}

export async function topicRow(sql: Sql, boardId: string, guid: string): Promise<TopicRow> {
  const row = isUuid(guid) ? await one<TopicRow>(sql, `SELECT ${COLUMNS} FROM bcf_topics t WHERE t.board_id = $1 AND t.guid = $2`, [boardId, guid]) : undefined;
  if (!row) throw notFound('Topic', guid);
  return row;
}

// ---- checks of a create or update body --------------------------------------------------

const INT32 = 2 ** 31 - 1;

type Body = Record<string, unknown>;

function optionalString(body: Body, key: string, max = 10_000): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw badRequest(`\`${key}\` must be a string of at most ${max} characters`);
  return value;
}

function oneOf(body: Body, key: string, allowed: string[], what: string): string | null {
  const value = optionalString(body, key, 255);
  if (value === null) return null;
  if (!allowed.includes(value)) throw badRequest(`\`${key}\` ${JSON.stringify(value)} is not one of the board's ${what}: ${allowed.map((v) => JSON.stringify(v)).join(', ') || 'none'}`);
  return value;
}

function user(body: Body, key: string, users: string[]): string | null {
  const value = optionalString(body, key, 255);
  if (value === null) return null;
  const found = users.find((u) => u.toLowerCase() === value.toLowerCase());
  if (!found) throw badRequest(`\`${key}\` ${JSON.stringify(value)} is not a user of the board: ${users.map((v) => JSON.stringify(v)).join(', ')}`);
  return found;
}

function date(body: Body, key: string): Date | null {
  const value = optionalString(body, key, 64);
  if (value === null) return null;
  const parsed = parseBcfDate(value);
  if (Number.isNaN(parsed.getTime())) throw badRequest(`\`${key}\` must be a date-time such as 2024-05-01T12:00:00.000+0000`);
  return parsed;
}

function platformPerson(body: Body, key: string, users: string[]): PlatformPerson | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  const entry = (v: unknown, part: string) => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`\`${key}.${part}\` must be an object {ref, email, name}`);
    const { ref, email, name } = v as Record<string, unknown>;
    if (typeof email !== 'string') throw badRequest(`\`${key}.${part}.email\` must be a string`);
    return { ref: typeof ref === 'string' ? ref : null, email, name: typeof name === 'string' ? name : email };
  };
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`\`${key}\` must be an object {user, team}`);
  const result = { user: entry((value as Body).user, 'user'), team: entry((value as Body).team, 'team') };
  if (result.user) result.user.email = user({ email: result.user.email }, 'email', users)!;
  return result;
}

function stringList(body: Body, key: string, allowed: string[] | null, max: number): string[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > max || value.some((v) => typeof v !== 'string')) throw badRequest(`\`${key}\` must be an array of at most ${max} strings`);
  const unknown = allowed ? value.filter((v) => !allowed.includes(v)) : [];
  if (unknown.length) throw badRequest(`\`${key}\` ${JSON.stringify(unknown)}: not among the board's values ${allowed!.map((v) => JSON.stringify(v)).join(', ')}`);
  return [...new Set(value as string[])];
}

function snippet(body: Body, allowed: string[]): BimSnippet | null {
  const value = body.bim_snippet;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('`bim_snippet` must be an object {snippet_type, is_external, reference, reference_schema}');
  const s = value as Body;
  const snippet_type = oneOf(s, 'snippet_type', allowed, 'snippet types');
  if (!snippet_type || typeof s.reference !== 'string' || typeof s.reference_schema !== 'string') throw badRequest('`bim_snippet` needs snippet_type, reference and reference_schema');
  return { snippet_type, is_external: s.is_external === true, reference: s.reference, reference_schema: s.reference_schema };
}

/** The topic fields of a create or update body, checked against the board's values. */
function fields(body: Body, allowed: AllowedValues, version: BcfVersion, current?: TopicRow) {
  if (typeof body.title !== 'string' || body.title.trim() === '' || body.title.length > 1000) throw badRequest('`title` is required: a non-empty string of at most 1000 characters');
  const index = body.index ?? null;
  // The column is a PostgreSQL integer: past it the INSERT failed (a 500).
  if (index !== null && (!Number.isInteger(index) || Math.abs(index as number) > INT32)) throw badRequest(`\`index\` must be an integer from -${INT32} to ${INT32}`);
  const assignee = platformPerson(body, 'platform_assigned_to', allowed.users);
  const links = body.reference_links ?? (version === '2.0' && typeof body.reference_link === 'string' ? [body.reference_link] : undefined);
  return {
    title: body.title,
    // A topic always has a type and status: a new one the defaults, an updated one those it had.
    topic_type: oneOf(body, 'topic_type', allowed.type, 'topic types') ?? current?.topic_type ?? allowed.type[0] ?? null,
    topic_status: oneOf(body, 'topic_status', allowed.status, 'statuses') ?? current?.topic_status ?? allowed.firstOpenStatus ?? null,
    assigned_to: assignee?.user?.email ?? user(body, 'assigned_to', allowed.users),
    description: optionalString(body, 'description'),
    reference_links: stringList({ reference_links: links }, 'reference_links', null, version === '2.1' ? 1 : 100),
    priority: oneOf(body, 'priority', allowed.priority, 'priorities'),
    index: index as number | null,
    labels: stringList(body, 'labels', allowed.label, 100),
    stage: oneOf(body, 'stage', allowed.stage, 'stages'),
    bim_snippet: snippet(body, allowed.snippet_type),
    due_date: date(body, 'due_date'),
    requester: platformPerson(body, 'platform_requester', allowed.users),
  };
}

// ---- create, update, delete -------------------------------------------------------------

export async function createTopic(db: Database, board: Board, caller: Caller, body: Body): Promise<TopicRow> {
  const allowed = await allowedValues(db, board.id, board.projectId);
  const topic = fields(body, allowed, caller.version);
  const guid = body.guid === undefined || body.guid === null ? randomUUID() : checkGuid(body.guid);
  const created = date(body, 'creation_date') ?? new Date();
  const author = user(body, 'creation_author', allowed.users) ?? caller.email;
  return db.transaction(async (tx) => {
    if (await one(tx, 'SELECT 1 FROM bcf_topics WHERE board_id = $1 AND guid = $2', [board.id, guid])) throw conflict(`A topic with the guid ${guid} exists`);
    const number = await nextIssueNumber(tx, board.id);
    await insertTopic(tx, board.id, guid, number, { ...topic, creation_date: created, creation_author: author });
    await recordEvent(tx, board.id, guid, author, [{ type: 'topic_created' }], created);
    await writeTopicValues(tx, board.id, guid, body.platform_custom_fields);
    return topicRow(tx, board.id, guid);
  });
}

/** The board's next platform_issue_number, taken. */
export async function nextIssueNumber(tx: Sql, boardId: string): Promise<number> {
  const [{ taken }] = await tx.query<{ taken: number }>('UPDATE bcf_boards SET next_issue = next_issue + 1 WHERE id = $1 RETURNING next_issue - 1 AS taken', [boardId]);
  return taken;
}

/** A topic row as given (the import writes through this too). */
export async function insertTopic(tx: Sql, boardId: string, guid: string, issueNumber: number, t: Omit<TopicRow, 'guid' | 'issue_number' | 'comments' | 'custom_values' | 'modified_date' | 'modified_author' | 'imported_by' | 'imported_at'> & Partial<Pick<TopicRow, 'modified_date' | 'modified_author' | 'imported_by' | 'imported_at'>>) {
  await tx.query(
    `INSERT INTO bcf_topics (board_id, guid, issue_number, topic_type, topic_status, reference_links, title, index, labels, creation_date, creation_author,
       modified_date, modified_author, assigned_to, description, due_date, stage, priority, bim_snippet, requester, imported_by, imported_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
    [boardId, guid, issueNumber, t.topic_type, t.topic_status, JSON.stringify(t.reference_links), t.title, t.index, t.labels, t.creation_date, t.creation_author,
      t.modified_date ?? null, t.modified_author ?? null, t.assigned_to, t.description, t.due_date, t.stage, t.priority, t.bim_snippet && JSON.stringify(t.bim_snippet),
      t.requester && JSON.stringify(t.requester), t.imported_by ?? null, t.imported_at ?? null],
  );
}

/** PUT: the body replaces the topic's fields (absent optional ones are cleared; type and status stay when absent). */
export async function updateTopic(db: Database, board: Board, caller: Caller, guid: string, body: Body): Promise<TopicRow> {
  const allowed = await allowedValues(db, board.id, board.projectId);
  return db.transaction(async (tx) => {
    const current = await topicRow(tx, board.id, guid);
    const next = fields(body, allowed, caller.version, current);
    const now = new Date();
    await tx.query(
      `UPDATE bcf_topics SET title = $3, topic_type = $4, topic_status = $5, assigned_to = $6, description = $7, reference_links = $8, priority = $9,
         index = $10, labels = $11, stage = $12, bim_snippet = $13, due_date = $14, requester = $15, modified_date = $16, modified_author = $17
       WHERE board_id = $1 AND guid = $2`,
      [board.id, current.guid, next.title, next.topic_type, next.topic_status, next.assigned_to, next.description, JSON.stringify(next.reference_links), next.priority,
        next.index, next.labels, next.stage, next.bim_snippet && JSON.stringify(next.bim_snippet), next.due_date, next.requester && JSON.stringify(next.requester), now, caller.email],
    );
    await recordEvent(tx, board.id, current.guid, caller.email, changes(current as unknown as Body, next), now);
    await writeTopicValues(tx, board.id, current.guid, body.platform_custom_fields);
    return topicRow(tx, board.id, current.guid);
  });
}

export async function deleteTopic(sql: Sql, board: Board, caller: Caller, guid: string): Promise<void> {
  const row = await topicRow(sql, board.id, guid);
  if (!mayDelete(board, caller, row.creation_author)) throw forbidden('Only the topic\'s author or a project administrator deletes a topic');
  await sql.query('DELETE FROM bcf_topics WHERE board_id = $1 AND guid = $2', [board.id, row.guid]);
}

// ---- lists -------------------------------------------------------------------------------

export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 500;

export interface ListOptions {
  $filter?: string;
  $orderby?: string;
  $top?: number;
  $skip?: number;
  $select?: string;
}

/** `$select` names (2.1, 3.0) and the topic fields each returns besides guid and platform_issue_number. */
const SELECTABLE: Record<string, string[]> = {
  title: ['title'],
  description: ['description'],
  index: ['index'],
  labels: ['labels'],
  due_date: ['due_date'],
  stage: ['stage'],
  modified_date: ['modified_date'],
  modified_author: ['modified_author'],
  topic_status: ['topic_status'],
  topic_type: ['topic_type'],
  topic_priority: ['priority'],
  priority: ['priority'],
  reference_links: ['reference_links'],
  bim_snippet: ['bim_snippet'],
  platform_comments_size: ['platform_comments_size'],
  platform_custom_fields: ['platform_custom_fields'],
  platform_requester: ['platform_requester'],
  platform_points: ['platform_points'],
  creation_author: ['creation_author', 'platform_imported_by'],
  creation_date: ['creation_date', 'platform_imported_at'],
  assigned_to: ['assigned_to', 'platform_assigned_to'],
  platform_assigned_to: ['assigned_to', 'platform_assigned_to'],
  server_assigned_id: ['server_assigned_id'],
};

/** The fields `$select` keeps, or null for all of them. */
function selection(text: string | undefined): Set<string> | null {
  if (text === undefined || text.trim() === '' || text.trim() === '*') return null;
  const names = selectNames(text);
  const unknown = names.filter((n) => n !== 'guid' && n !== 'platform_issue_number' && n !== '*' && !SELECTABLE[n]);
  if (unknown.length) throw badRequest(`$select: unknown field(s) ${unknown.join(', ')} (fields: ${Object.keys(SELECTABLE).join(', ')})`);
  if (names.includes('*')) return null;
  return new Set(['guid', 'platform_issue_number', ...names.flatMap((n) => SELECTABLE[n] ?? [])]);
}

export async function listTopics(sql: Sql, board: Board, caller: Caller, options: ListOptions): Promise<Record<string, unknown>[]> {
  // Seed 001: in 2.1 and 3.0 the topic list needs a filter.
  if (caller.version !== '2.0' && !options.$filter) throw badRequest(`The topic list of BCF ${caller.version} needs a $filter (for example $filter=topic_status ne 'Closed'; seed 001)`);
  const top = options.$top ?? PAGE_DEFAULT;
  if (!Number.isInteger(top) || top < 0 || top > PAGE_MAX) throw badRequest(`$top must be an integer from 0 to ${PAGE_MAX}`);
  const skip = options.$skip ?? 0;
  if (!Number.isInteger(skip) || skip < 0) throw badRequest('$skip must be a non-negative integer');
  const keep = caller.version === '2.0' ? null : selection(options.$select);
  const condition = options.$filter ? filterCondition(options.$filter, 4) : { where: 'true', params: [] };
  // $top and $skip are bound, not written into the text: each text is a statement prepared
  // on every pooled connection and kept there (storage/postgres.ts), so a text per page
  // grew the database's memory without end as a client paged (the load soak showed it).
  // A filter's shape is the client's to choose, as endless: those texts are not kept.
  const rows = await sql.query<TopicRow>(
    `SELECT ${COLUMNS} FROM bcf_topics t WHERE t.board_id = $1 AND ${condition.where} ORDER BY ${orderBy(options.$orderby)} LIMIT $2 OFFSET $3`,
    [board.id, top, skip, ...condition.params],
    { keep: !options.$filter },
  );
  const people = await peopleOf(sql, board.projectId);
  return rows.map((row) => {
    const topic = topicJson(row, caller, people);
    if (!keep) return topic;
    if (keep.has('platform_points')) topic.platform_points = [];
    return Object.fromEntries(Object.entries(topic).filter(([key]) => keep.has(key)));
  });
}
