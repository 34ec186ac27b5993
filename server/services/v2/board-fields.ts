import { one, type Database, type Sql } from '../../storage/database.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { projectFor, requireAdmin } from '../projects.js';
import { applyMove, checkValue, fieldOf, itemsOf, type CustomField, type EnumerationItem } from './custom-fields.js';

/**
 * Topic boards as the v2 API sees them (seed 002): the issue boards of the BCF API
 * (services/bcf/boards.ts) with their custom-field instances, one per custom field of
 * the project, in their order. An instance's id is its custom field's id. Members read,
 * the project's administrators change them. A required instance has a default value:
 * every topic of the board holds a value for it (the default unless one was given).
 */
export interface Instance {
  id: string;
  disabled: boolean;
  required: boolean;
  defaultValue: string | number | null;
  itemBeforeId: string | null;
}

export interface TopicBoard {
  id: string;
  name: string;
  description: string;
  customFields?: CustomField[];
  customFieldInstances: Instance[];
}

type Identifier = { id: string };
type NewInstance = { id: string; required?: boolean; defaultValue?: string | number | null };
export interface BoardPatch {
  customFieldsToAdd?: NewInstance[];
  customFieldsToModify?: NewInstance[];
  customFieldsToDisable?: Identifier[];
  /** The seed's spelling; `customFieldsToRestore` is taken too. */
  customFieldstoRestore?: Identifier[];
  customFieldsToRestore?: Identifier[];
  customFieldsToDelete?: Identifier[];
  customFieldsToMove?: { id: string; itemBeforeId: string | null }[];
}

const UUID = /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/i;

/** A board id as the BCF API writes it (a UUID), from that form or the compacted one (32 hex digits). */
function boardUuid(id: string): string | undefined {
  const parts = UUID.exec(id);
  return parts ? parts.slice(1).join('-').toLowerCase() : undefined;
}

/** The board of this project, or 404 `IssueBoard (<id>) not found`. */
async function boardOf(sql: Sql, projectId: string, boardId: string, lock = false): Promise<{ id: string; name: string }> {
  const uuid = boardUuid(boardId);
  const board = uuid ? await one<{ id: string; name: string }>(sql, `SELECT id, name FROM bcf_boards WHERE id = $1 AND project_id = $2${lock ? ' FOR UPDATE' : ''}`, [uuid, projectId]) : undefined;
  if (!board) throw notFound('IssueBoard', boardId);
  return board;
}

type InstanceRow = { id: string; disabled: boolean; required: boolean; defaultValue: string | number | null };

async function instanceRows(sql: Sql, boardId: string): Promise<InstanceRow[]> {
  return sql.query<InstanceRow>(
    'SELECT field_id AS id, disabled, required, default_value AS "defaultValue" FROM bcf_board_custom_fields WHERE board_id = $1 ORDER BY position, field_id',
    [boardId],
  );
}

async function boardJson(sql: Sql, projectId: string, board: { id: string; name: string }, includeFields: boolean): Promise<TopicBoard> {
  const rows = await instanceRows(sql, board.id);
  const customFieldInstances = rows.map((r, n) => ({ ...r, itemBeforeId: n === 0 ? null : rows[n - 1].id }));
  const customFields = includeFields ? await Promise.all(rows.map((r) => fieldOf(sql, projectId, r.id))) : undefined;
  return { id: board.id, name: board.name, description: '', ...(customFields ? { customFields } : {}), customFieldInstances };
}

export async function getTopicBoard(sql: Sql, userId: string, projectId: string, boardId: string, includeFields: boolean): Promise<TopicBoard> {
  await projectFor(sql, userId, projectId);
  return boardJson(sql, projectId, await boardOf(sql, projectId, boardId), includeFields);
}

/** Every topic of the board (or this one) holds a value of each required instance: the default where it had none. */
export async function fillRequiredValues(sql: Sql, boardId: string, topicGuid?: string): Promise<void> {
  await sql.query(
    `INSERT INTO bcf_topic_custom_values (board_id, topic_guid, field_id, value)
     SELECT t.board_id, t.guid, i.field_id, i.default_value FROM bcf_topics t JOIN bcf_board_custom_fields i ON i.board_id = t.board_id
     WHERE t.board_id = $1 AND ($2::uuid IS NULL OR t.guid = $2) AND i.required
     ON CONFLICT (board_id, topic_guid, field_id) DO NOTHING`,
    [boardId, topicGuid ?? null],
  );
}

/**
 * PATCH: the operations in the seed's order (add, modify, disable, restore, delete,
 * move), all of them or, at the first wrong one, none. Answers the board.
 */
export async function updateTopicBoard(db: Database, userId: string, projectId: string, boardId: string, patch: BoardPatch, includeFields: boolean): Promise<TopicBoard> {
  return db.transaction(async (tx) => {
    requireAdmin(await projectFor(tx, userId, projectId));
    const board = await boardOf(tx, projectId, boardId, true);
    const instances = await instanceRows(tx, board.id);
    const fields = new Map<string, { field: CustomField; items: EnumerationItem[] }>();
    const fieldFor = async (id: string, key: string) => {
      if (!fields.has(id)) {
        const field = await fieldOf(tx, projectId, id).catch((error) => {
          throw error instanceof ApiError && error.status === 404 ? badRequest(`\`${key}\`: custom field (${id}) is not a custom field of project (${projectId})`) : error;
        });
        fields.set(id, { field, items: field.type === 'enumeration' ? await itemsOf(tx, id) : [] });
      }
      return fields.get(id)!;
    };
    const find = (id: unknown, key: string) => {
      const instance = instances.find((i) => i.id === id);
      if (!instance) throw badRequest(`\`${key}\`: custom field (${String(id)}) is not on issue board (${board.id})`);
      return instance;
    };
    /** A default of the field's type; a required instance must have one. */
    const defaultValue = async (id: string, required: boolean, value: unknown, key: string, keep?: unknown) => {
      if (value === null || value === undefined) {
        if (required) throw badRequest(`\`${key}.defaultValue\`: a required custom field needs a default value (the value of topics that have none)`);
        return null;
      }
      const { field, items } = await fieldFor(id, `${key}.id`);
      return checkValue(field, items, value, `${key}.defaultValue`, keep);
    };

    for (const [n, entry] of (patch.customFieldsToAdd ?? []).entries()) {
      const key = `customFieldsToAdd[${n}]`;
      const { field } = await fieldFor(entry.id, `${key}.id`);
      if (field.archived) throw badRequest(`\`${key}.id\`: custom field (${field.id}) is archived`);
      if (instances.some((i) => i.id === field.id)) throw badRequest(`\`${key}.id\`: custom field (${field.id}) is on issue board (${board.id}) already`);
      const required = entry.required ?? false;
      instances.push({ id: field.id, disabled: false, required, defaultValue: await defaultValue(field.id, required, entry.defaultValue, key) });
    }
    for (const [n, entry] of (patch.customFieldsToModify ?? []).entries()) {
      const key = `customFieldsToModify[${n}]`;
      const instance = find(entry.id, `${key}.id`);
      const required = entry.required ?? instance.required;
      const value = entry.defaultValue === undefined ? instance.defaultValue : entry.defaultValue;
      instance.defaultValue = await defaultValue(instance.id, required, value, key, instance.defaultValue);
      instance.required = required;
    }
    (patch.customFieldsToDisable ?? []).forEach((entry, n) => (find(entry.id, `customFieldsToDisable[${n}].id`).disabled = true));
    for (const restore of ['customFieldstoRestore', 'customFieldsToRestore'] as const) {
      (patch[restore] ?? []).forEach((entry, n) => (find(entry.id, `${restore}[${n}].id`).disabled = false));
    }
    (patch.customFieldsToDelete ?? []).forEach((entry, n) => instances.splice(instances.indexOf(find(entry.id, `customFieldsToDelete[${n}].id`)), 1));
    (patch.customFieldsToMove ?? []).forEach((entry, n) => applyMove(instances, entry, `customFieldsToMove[${n}]`, find, 'a custom field'));

    await tx.query('DELETE FROM bcf_board_custom_fields WHERE board_id = $1 AND NOT (field_id = ANY($2::text[]))', [board.id, instances.map((i) => i.id)]);
    for (const [position, i] of instances.entries()) {
      await tx.query(
        `INSERT INTO bcf_board_custom_fields (board_id, field_id, disabled, required, default_value, position) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (board_id, field_id) DO UPDATE SET disabled = EXCLUDED.disabled, required = EXCLUDED.required, default_value = EXCLUDED.default_value, position = EXCLUDED.position`,
        [board.id, i.id, i.disabled, i.required, i.defaultValue === null ? null : JSON.stringify(i.defaultValue), position],
      );
    }
    await fillRequiredValues(tx, board.id);
    return boardJson(tx, projectId, board, includeFields);
  });
}
