import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, conflict, notFound } from '../errors.js';

/**
 * A board's extensions (seed 001): the values its topics may take. Statuses (with a
 * colour and a type: open, closed or candidate) and types (with a colour) are kept per
 * board and edited through the API; labels, priorities, stages and snippet types are the
 * board's defaults (and grow with BCF imports); users are the platform project's members.
 * A status, type or user a BCF file brought that the board lacked is *unlinked*: shown
 * with `unlinked: true`, refused in new topics (rule 1), until linked into a real one.
 */
export type ValueKind = 'status' | 'type' | 'user' | 'label' | 'priority' | 'stage' | 'snippet_type';
export type StatusType = 'open' | 'closed' | 'candidate';

export interface Status {
  name: string;
  color?: string;
  type?: StatusType;
  unlinked?: true;
}
export interface TopicType {
  name: string;
  color?: string;
  unlinked?: true;
}
export interface ExtensionUser {
  name: string;
  id: string;
  unlinked?: true;
}

/** What a new board starts with. */
const DEFAULTS: Record<Exclude<ValueKind, 'user'>, { name: string; color?: string; type?: StatusType }[]> = {
  status: [
    { name: 'Open', color: '#D32F2F', type: 'open' },
    { name: 'In Progress', color: '#F9A825', type: 'open' },
    { name: 'Resolved', color: '#1976D2', type: 'candidate' },
    { name: 'Closed', color: '#388E3C', type: 'closed' },
  ],
  type: [
    { name: 'Issue', color: '#D32F2F' },
    { name: 'Clash', color: '#7B1FA2' },
    { name: 'Request', color: '#1976D2' },
    { name: 'Remark', color: '#616161' },
  ],
  label: ['Architecture', 'Structure', 'MEP', 'Coordination'].map((name) => ({ name })),
  priority: ['Low', 'Normal', 'High', 'Critical'].map((name) => ({ name })),
  stage: ['Design', 'Tender', 'Construction', 'Handover'].map((name) => ({ name })),
  snippet_type: ['IFC', 'IDS'].map((name) => ({ name })),
};

export async function seedExtensions(sql: Sql, boardId: string): Promise<void> {
  for (const [kind, values] of Object.entries(DEFAULTS)) {
    for (const [position, value] of values.entries()) {
      await sql.query('INSERT INTO bcf_extension_values (board_id, kind, name, color, status_type, position) VALUES ($1, $2, $3, $4, $5, $6)', [boardId, kind, value.name, value.color ?? null, value.type ?? null, position]);
    }
  }
}

interface ValueRow {
  kind: ValueKind;
  name: string;
  color: string | null;
  status_type: StatusType | null;
  unlinked: boolean;
}

async function valuesOf(sql: Sql, boardId: string, kind?: ValueKind): Promise<ValueRow[]> {
  return sql.query<ValueRow>('SELECT kind, name, color, status_type, unlinked FROM bcf_extension_values WHERE board_id = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY kind, position, name', [boardId, kind ?? null]);
}

const asStatus = (r: ValueRow): Status => (r.unlinked ? { name: r.name, unlinked: true } : { name: r.name, color: r.color!, type: r.status_type! });
const asType = (r: ValueRow): TopicType => (r.unlinked ? { name: r.name, unlinked: true } : { name: r.name, color: r.color! });

/** The board's members as BCF users (id: their e-mail). */
async function members(sql: Sql, projectId: string): Promise<ExtensionUser[]> {
  return sql.query<ExtensionUser>('SELECT u.email AS id, u.name FROM users u JOIN project_members m ON m.user_id = u.id WHERE m.project_id = $1 ORDER BY u.email', [projectId]);
}

/** Every value a topic may take, by field, linked ones only (rule 1): what topics are checked against. */
export interface AllowedValues {
  status: string[];
  /** The first status of type open: a new topic's default. */
  firstOpenStatus: string | undefined;
  type: string[];
  label: string[];
  priority: string[];
  stage: string[];
  snippet_type: string[];
  users: string[];
}

export async function allowedValues(sql: Sql, boardId: string, projectId: string): Promise<AllowedValues> {
  const rows = (await valuesOf(sql, boardId)).filter((r) => !r.unlinked);
  const names = (kind: ValueKind) => rows.filter((r) => r.kind === kind).map((r) => r.name);
  return {
    status: names('status'),
    firstOpenStatus: rows.find((r) => r.kind === 'status' && r.status_type === 'open')?.name,
    type: names('type'),
    label: names('label'),
    priority: names('priority'),
    stage: names('stage'),
    snippet_type: names('snippet_type'),
    users: (await members(sql, projectId)).map((u) => u.id),
  };
}

export async function listStatuses(sql: Sql, boardId: string, includeUnlinked = false): Promise<Status[]> {
  return (await valuesOf(sql, boardId, 'status')).filter((r) => includeUnlinked || !r.unlinked).map(asStatus);
}

export async function listTypes(sql: Sql, boardId: string, includeUnlinked = false): Promise<TopicType[]> {
  return (await valuesOf(sql, boardId, 'type')).filter((r) => includeUnlinked || !r.unlinked).map(asType);
}

export async function listUsers(sql: Sql, boardId: string, projectId: string, includeUnlinked = false): Promise<ExtensionUser[]> {
  const linked = await members(sql, projectId);
  if (!includeUnlinked) return linked;
  const unlinked = (await valuesOf(sql, boardId, 'user')).map((r) => ({ name: r.name, id: r.name, unlinked: true as const }));
  return [...linked, ...unlinked];
}

const STATUS_TYPES: StatusType[] = ['open', 'closed', 'candidate'];

function checkColor(color: unknown): string {
  if (typeof color !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(color)) throw badRequest('`color` must be a hexadecimal colour such as #1976D2');
  return color.toUpperCase();
}

function checkStatusType(type: unknown): StatusType {
  if (!STATUS_TYPES.includes(type as StatusType)) throw badRequest(`\`type\` must be one of ${STATUS_TYPES.join(', ')}`);
  return type as StatusType;
}

function checkValueName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || name.trim() === '' || name.length > 255) throw badRequest(`\`${field}\` must be a non-empty string of at most 255 characters`);
  return name;
}

function row(sql: Sql, boardId: string, kind: ValueKind, name: string): Promise<ValueRow | undefined> {
  return one<ValueRow>(sql, 'SELECT kind, name, color, status_type, unlinked FROM bcf_extension_values WHERE board_id = $1 AND kind = $2 AND name = $3', [boardId, kind, name]);
}

const WHAT = { status: 'Status', type: 'Topic type' } as const;

async function existing(sql: Sql, boardId: string, kind: 'status' | 'type', name: string, linked = true): Promise<ValueRow> {
  const found = await row(sql, boardId, kind, name);
  if (!found || found.unlinked === linked) throw notFound(`${linked ? '' : 'Unlinked '}${WHAT[kind]}`.trim(), name);
  return found;
}

async function append(sql: Sql, boardId: string, kind: ValueKind, name: string, color: string | null, type: StatusType | null, unlinked = false) {
  await sql.query(
    `INSERT INTO bcf_extension_values (board_id, kind, name, color, status_type, unlinked, position)
     VALUES ($1, $2, $3, $4, $5, $6, (SELECT coalesce(max(position) + 1, 0) FROM bcf_extension_values WHERE board_id = $1 AND kind = $2))`,
    [boardId, kind, name, color, type, unlinked],
  );
}

export async function createStatus(sql: Sql, boardId: string, body: { name: unknown; color?: unknown; type?: unknown }): Promise<Status> {
  const name = checkValueName(body.name);
  const color = checkColor(body.color ?? '#000000');
  const type = checkStatusType(body.type ?? 'open');
  if (await row(sql, boardId, 'status', name)) throw conflict(`The status ${JSON.stringify(name)} exists`);
  await append(sql, boardId, 'status', name, color, type);
  return { name, color, type };
}

export async function createType(sql: Sql, boardId: string, body: { name: unknown; color?: unknown }): Promise<TopicType> {
  const name = checkValueName(body.name);
  const color = checkColor(body.color ?? '#000000');
  if (await row(sql, boardId, 'type', name)) throw conflict(`The topic type ${JSON.stringify(name)} exists`);
  await append(sql, boardId, 'type', name, color, null);
  return { name, color };
}

const COLUMN = { status: 'topic_status', type: 'topic_type' } as const;

/** Renames (topics follow), recolours, retypes a status; the last open status stays open (rule 2). */
export async function updateStatus(db: Database, boardId: string, body: { existingName: unknown; name?: unknown; color?: unknown; type?: unknown }): Promise<Status> {
  return db.transaction(async (tx) => {
    const current = await existing(tx, boardId, 'status', checkValueName(body.existingName, 'existingName'));
    const next = {
      name: body.name === undefined ? current.name : checkValueName(body.name),
      color: body.color === undefined ? current.color! : checkColor(body.color),
      type: body.type === undefined ? current.status_type! : checkStatusType(body.type),
    };
    if (current.status_type === 'open' && next.type !== 'open' && (await openStatuses(tx, boardId)) === 1) throw badRequest(`${JSON.stringify(current.name)} is the board's last open status: its type cannot change`);
    await rename(tx, boardId, 'status', current.name, next.name);
    await tx.query('UPDATE bcf_extension_values SET color = $4, status_type = $5 WHERE board_id = $1 AND kind = $2 AND name = $3', [boardId, 'status', next.name, next.color, next.type]);
    return next;
  });
}

export async function updateType(db: Database, boardId: string, body: { existingName: unknown; name?: unknown; color?: unknown }): Promise<TopicType> {
  return db.transaction(async (tx) => {
    const current = await existing(tx, boardId, 'type', checkValueName(body.existingName, 'existingName'));
    const next = { name: body.name === undefined ? current.name : checkValueName(body.name), color: body.color === undefined ? current.color! : checkColor(body.color) };
    await rename(tx, boardId, 'type', current.name, next.name);
    await tx.query('UPDATE bcf_extension_values SET color = $4 WHERE board_id = $1 AND kind = $2 AND name = $3', [boardId, 'type', next.name, next.color]);
    return next;
  });
}

async function rename(tx: Sql, boardId: string, kind: 'status' | 'type', from: string, to: string) {
  if (from === to) return;
  if (await row(tx, boardId, kind, to)) throw conflict(`The ${kind === 'status' ? 'status' : 'topic type'} ${JSON.stringify(to)} exists`);
  await tx.query('UPDATE bcf_extension_values SET name = $4 WHERE board_id = $1 AND kind = $2 AND name = $3', [boardId, kind, from, to]);
  await tx.query(`UPDATE bcf_topics SET ${COLUMN[kind]} = $3 WHERE board_id = $1 AND ${COLUMN[kind]} = $2`, [boardId, from, to]);
}

async function openStatuses(sql: Sql, boardId: string): Promise<number> {
  return (await sql.query(`SELECT count(*)::int AS n FROM bcf_extension_values WHERE board_id = $1 AND kind = 'status' AND status_type = 'open' AND NOT unlinked`, [boardId]))[0].n;
}

async function inUse(sql: Sql, boardId: string, kind: 'status' | 'type', name: string): Promise<number> {
  return (await sql.query(`SELECT count(*)::int AS n FROM bcf_topics WHERE board_id = $1 AND ${COLUMN[kind]} = $2`, [boardId, name]))[0].n;
}

/** Deletes a status no topic has; never the last open one (rule 2). Unlinked ones too. */
export async function deleteStatus(db: Database, boardId: string, name: unknown): Promise<void> {
  await db.transaction(async (tx) => {
    const found = await row(tx, boardId, 'status', checkValueName(name));
    if (!found) throw notFound('Status', String(name));
    if (!found.unlinked && found.status_type === 'open' && (await openStatuses(tx, boardId)) === 1) throw badRequest(`${JSON.stringify(found.name)} is the board's last open status: it cannot be deleted`);
    await deleteUnused(tx, boardId, 'status', found.name);
  });
}

/** Deletes a type no topic has; never the last one (rule 3). */
export async function deleteType(db: Database, boardId: string, name: unknown): Promise<void> {
  await db.transaction(async (tx) => {
    const found = await row(tx, boardId, 'type', checkValueName(name));
    if (!found) throw notFound('Topic type', String(name));
    if (!found.unlinked && (await listTypes(tx, boardId)).length === 1) throw badRequest(`${JSON.stringify(found.name)} is the board's last topic type: it cannot be deleted`);
    await deleteUnused(tx, boardId, 'type', found.name);
  });
}

async function deleteUnused(tx: Sql, boardId: string, kind: 'status' | 'type', name: string) {
  const topics = await inUse(tx, boardId, kind, name);
  if (topics) throw badRequest(`${JSON.stringify(name)} is in use by ${topics} topic(s): it cannot be deleted`);
  await tx.query('DELETE FROM bcf_extension_values WHERE board_id = $1 AND kind = $2 AND name = $3', [boardId, kind, name]);
}

/** Merges the unlinked status or type `unlinkedName` into the linked `name`: its topics take `name`. */
export async function linkValue(db: Database, boardId: string, kind: 'status' | 'type', body: { name: unknown; unlinkedName: unknown }): Promise<Status | TopicType> {
  return db.transaction(async (tx) => {
    const target = await existing(tx, boardId, kind, checkValueName(body.name));
    const source = await existing(tx, boardId, kind, checkValueName(body.unlinkedName, 'unlinkedName'), false);
    await tx.query(`UPDATE bcf_topics SET ${COLUMN[kind]} = $3 WHERE board_id = $1 AND ${COLUMN[kind]} = $2`, [boardId, source.name, target.name]);
    await tx.query('DELETE FROM bcf_extension_values WHERE board_id = $1 AND kind = $2 AND name = $3', [boardId, kind, source.name]);
    return kind === 'status' ? asStatus(target) : asType(target);
  });
}

/** Merges the unlinked user `unlinkedUser` into the member `existingUserId`: topics and comments name the member. */
export async function linkUser(db: Database, boardId: string, projectId: string, body: { existingUserId: unknown; unlinkedUser: unknown }): Promise<ExtensionUser> {
  return db.transaction(async (tx) => {
    const id = checkValueName(body.existingUserId, 'existingUserId').toLowerCase();
    const member = (await members(tx, projectId)).find((u) => u.id.toLowerCase() === id);
    if (!member) throw notFound('User', String(body.existingUserId));
    const unlinked = checkValueName(body.unlinkedUser, 'unlinkedUser');
    const found = await row(tx, boardId, 'user', unlinked);
    if (!found) throw notFound('Unlinked user', unlinked);
    for (const column of ['assigned_to', 'creation_author', 'modified_author']) {
      await tx.query(`UPDATE bcf_topics SET ${column} = $3 WHERE board_id = $1 AND ${column} = $2`, [boardId, unlinked, member.id]);
    }
    for (const column of ['author', 'modified_author']) {
      await tx.query(`UPDATE bcf_comments SET ${column} = $3 WHERE board_id = $1 AND ${column} = $2`, [boardId, unlinked, member.id]);
    }
    await tx.query(`DELETE FROM bcf_extension_values WHERE board_id = $1 AND kind = 'user' AND name = $2`, [boardId, unlinked]);
    return member;
  });
}

/**
 * Records a value a BCF file brought that the board lacks (unlinked for statuses, types
 * and users; plainly added for labels, priorities, stages and snippet types, which have
 * no linking). A user's name is their id. Resolves with whether the board lacked it.
 */
export async function addImportedValue(sql: Sql, boardId: string, kind: ValueKind, name: string): Promise<boolean> {
  if (await row(sql, boardId, kind, name)) return false;
  await append(sql, boardId, kind, name, null, null, kind === 'status' || kind === 'type' || kind === 'user');
  return true;
}
