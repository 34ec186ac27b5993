import { one, type Database, type Sql } from '../../storage/database.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { checkName, projectFor, requireAdmin } from '../projects.js';
import { newId } from '../secrets.js';
import { parseBcfDate } from '../bcf/versions.js';

/**
 * Custom fields of a project (seed 002) and the items of enumeration fields. Members
 * read them, the project's administrators create and change them (403 for other
 * members); for anyone else the project does not exist (404). A PATCH applies its parts
 * in the order of the seed's table (name, description, archived, then the items to add,
 * move, disable, restore, rename and re-code), all of it or, at the first wrong part,
 * none. Item names are unique within a field without regard to case, codes exactly:
 * an item added, renamed or re-coded onto another's is the seed's 409 (code 600).
 */
export const FIELD_TYPES = ['text', 'integer', 'double', 'enumeration', 'date'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type ArchivedFilter = 'all' | 'archived' | 'not-archived';

export interface CustomField {
  id: string;
  name: string;
  description: string;
  type: FieldType;
  createdAt: string;
  createdBy: string;
  archived: boolean;
}

export interface EnumerationItem {
  id: string;
  name: string;
  code: string | null;
  disabled: boolean;
}

export interface FieldPatch {
  name?: string;
  description?: string;
  archived?: boolean;
  enumerationItemsToAdd?: { name: string; code?: string | null }[];
  enumerationItemsToMove?: { id: string; itemBeforeId: string | null }[];
  enumerationItemsToDisable?: { id: string }[];
  enumerationItemsToRestore?: { id: string }[];
  enumerationItemsToRename?: { id: string; name: string }[];
  enumerationItemsToUpdateCode?: { id: string; code: string | null }[];
}

const ITEM_OPERATIONS = ['enumerationItemsToAdd', 'enumerationItemsToMove', 'enumerationItemsToDisable', 'enumerationItemsToRestore', 'enumerationItemsToRename', 'enumerationItemsToUpdateCode'] as const;

/** Seed 002's conflict: status 409, code 600, name `conflict`. */
export const itemExists = () => new ApiError(409, 600, 'conflict', 'Enumeration item already exists');

const FIELD = `SELECT id, name, description, type, created_at, created_by, archived FROM custom_fields`;
type FieldRow = { id: string; name: string; description: string; type: FieldType; created_at: Date; created_by: string; archived: boolean };
const fieldJson = (r: FieldRow): CustomField => ({ id: r.id, name: r.name, description: r.description, type: r.type, createdAt: r.created_at.toISOString(), createdBy: r.created_by, archived: r.archived });

const ID = /^[0-9a-f]{32}$/;

/** The field of this project, or 404 `Custom field (<id>) not found`. */
export async function fieldOf(sql: Sql, projectId: string, fieldId: string, lock = false): Promise<CustomField> {
  const row = ID.test(fieldId) ? await one<FieldRow>(sql, `${FIELD} WHERE id = $1 AND project_id = $2${lock ? ' FOR UPDATE' : ''}`, [fieldId, projectId]) : undefined;
  if (!row) throw notFound('Custom field', fieldId);
  return fieldJson(row);
}

/** The items of a field, in their order. */
export async function itemsOf(sql: Sql, fieldId: string): Promise<EnumerationItem[]> {
  return sql.query<EnumerationItem>('SELECT id, name, code, disabled FROM custom_field_items WHERE field_id = $1 ORDER BY position, id', [fieldId]);
}

export async function listFields(sql: Sql, userId: string, projectId: string, archived: ArchivedFilter = 'all'): Promise<CustomField[]> {
  await projectFor(sql, userId, projectId);
  const rows = await sql.query<FieldRow>(`${FIELD} WHERE project_id = $1 AND ($2 = 'all' OR archived = ($2 = 'archived')) ORDER BY created_at, id`, [projectId, archived]);
  return rows.map(fieldJson);
}

export async function getField(sql: Sql, userId: string, projectId: string, fieldId: string): Promise<CustomField> {
  await projectFor(sql, userId, projectId);
  return fieldOf(sql, projectId, fieldId);
}

export async function listItems(sql: Sql, userId: string, projectId: string, fieldId: string): Promise<EnumerationItem[]> {
  await projectFor(sql, userId, projectId);
  return itemsOf(sql, (await fieldOf(sql, projectId, fieldId)).id);
}

function checkDescription(value: unknown, key = 'description'): string {
  if (typeof value !== 'string' || value.length > 10_000) throw badRequest(`\`${key}\` must be a string of at most 10000 characters`);
  return value;
}

export async function createField(sql: Sql, userId: string, projectId: string, body: { name: string; description?: string; type: string }): Promise<CustomField> {
  requireAdmin(await projectFor(sql, userId, projectId));
  const name = checkName(body.name);
  const description = checkDescription(body.description ?? '');
  if (!FIELD_TYPES.includes(body.type as FieldType)) throw badRequest(`\`type\` must be one of ${FIELD_TYPES.join(', ')}`);
  const id = newId();
  await sql.query('INSERT INTO custom_fields (id, project_id, name, description, type, created_by) VALUES ($1, $2, $3, $4, $5, $6)', [id, projectId, name, description, body.type, userId]);
  return fieldOf(sql, projectId, id);
}

function itemName(value: unknown, key: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 255) throw badRequest(`\`${key}\` must be a non-empty string of at most 255 characters`);
  return value;
}

/** An item's code: a string of at most 255 characters; null, absent or "" for none. */
function itemCode(value: unknown, key: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 255) throw badRequest(`\`${key}\` must be a string of at most 255 characters, or null`);
  return value;
}

/** PATCH: the field's own values, then the item operations, in one transaction. */
export async function updateField(db: Database, userId: string, projectId: string, fieldId: string, patch: FieldPatch): Promise<CustomField> {
  return db.transaction(async (tx) => {
    requireAdmin(await projectFor(tx, userId, projectId));
    const field = await fieldOf(tx, projectId, fieldId, true);
    const next = {
      name: patch.name === undefined ? field.name : checkName(patch.name),
      description: patch.description === undefined ? field.description : checkDescription(patch.description),
      archived: patch.archived ?? field.archived,
    };
    await tx.query('UPDATE custom_fields SET name = $2, description = $3, archived = $4 WHERE id = $1', [field.id, next.name, next.description, next.archived]);
    const operations = ITEM_OPERATIONS.filter((key) => patch[key]?.length);
    if (!operations.length) return fieldOf(tx, projectId, field.id);
    if (field.type !== 'enumeration') throw badRequest(`\`${operations[0]}\`: custom field (${field.id}) is of type ${field.type}; only enumeration fields have items`);

    const items: (EnumerationItem & { added?: boolean })[] = await itemsOf(tx, field.id);
    const find = (id: unknown, key: string) => {
      const item = items.find((i) => i.id === id);
      if (!item) throw badRequest(`\`${key}\`: enumeration item (${String(id)}) is not an item of custom field (${field.id})`);
      return item;
    };
    const nameTaken = (name: string, self?: EnumerationItem) => items.some((i) => i !== self && i.name.toLowerCase() === name.toLowerCase());
    const codeTaken = (code: string | null, self?: EnumerationItem) => code !== null && items.some((i) => i !== self && i.code === code);

    (patch.enumerationItemsToAdd ?? []).forEach((entry, n) => {
      const key = `enumerationItemsToAdd[${n}]`;
      const item = { id: newId(), name: itemName(entry.name, `${key}.name`), code: itemCode(entry.code, `${key}.code`), disabled: false, added: true };
      if (nameTaken(item.name) || codeTaken(item.code)) throw itemExists();
      items.push(item);
    });
    (patch.enumerationItemsToMove ?? []).forEach((entry, n) => applyMove(items, entry, `enumerationItemsToMove[${n}]`, find, 'an enumeration item'));
    (patch.enumerationItemsToDisable ?? []).forEach((entry, n) => (find(entry.id, `enumerationItemsToDisable[${n}].id`).disabled = true));
    (patch.enumerationItemsToRestore ?? []).forEach((entry, n) => (find(entry.id, `enumerationItemsToRestore[${n}].id`).disabled = false));
    (patch.enumerationItemsToRename ?? []).forEach((entry, n) => {
      const item = find(entry.id, `enumerationItemsToRename[${n}].id`);
      const name = itemName(entry.name, `enumerationItemsToRename[${n}].name`);
      if (nameTaken(name, item)) throw itemExists();
      item.name = name;
    });
    (patch.enumerationItemsToUpdateCode ?? []).forEach((entry, n) => {
      const item = find(entry.id, `enumerationItemsToUpdateCode[${n}].id`);
      const code = itemCode(entry.code, `enumerationItemsToUpdateCode[${n}].code`);
      if (codeTaken(code, item)) throw itemExists();
      item.code = code;
    });

    for (const [position, item] of items.entries()) {
      await tx.query(
        `INSERT INTO custom_field_items (id, field_id, name, code, disabled, position) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, code = EXCLUDED.code, disabled = EXCLUDED.disabled, position = EXCLUDED.position`,
        [item.id, field.id, item.name, item.code, item.disabled, position],
      );
    }
    return fieldOf(tx, projectId, field.id);
  });
}

/**
 * One entry of a `...ToMove` list: the entry's `id` then stands right after `itemBeforeId`
 * in `list`, or first when that is null. `find` gives an element of the list or throws
 * the 400 naming `key`; the element itself as `itemBeforeId` is a 400 too.
 */
export function applyMove<T extends { id: string }>(list: T[], entry: { id: string; itemBeforeId?: string | null }, key: string, find: (id: unknown, key: string) => T, what: string): void {
  const element = find(entry.id, `${key}.id`);
  if (entry.itemBeforeId === element.id) throw badRequest(`\`${key}.itemBeforeId\`: ${what} cannot stand before itself`);
  const before = entry.itemBeforeId === null || entry.itemBeforeId === undefined ? null : find(entry.itemBeforeId, `${key}.itemBeforeId`);
  list.splice(list.indexOf(element), 1);
  list.splice(before ? list.indexOf(before) + 1 : 0, 0, element);
}

// ---- values ------------------------------------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return false;
  return !Number.isNaN(parseBcfDate(value).getTime());
}

/**
 * A value of the field's type, as stored and answered: text a string, integer an
 * integer, double a number, enumeration the id of one of the field's enabled items (or
 * `keep`, the value held already, even when its item has been disabled since), date an
 * ISO 8601 date or date-time string, kept as sent. 400 naming `key` otherwise.
 */
export function checkValue(field: Pick<CustomField, 'id' | 'type'>, items: EnumerationItem[], value: unknown, key: string, keep?: unknown): string | number {
  const wrong = (what: string) => badRequest(`\`${key}\` must be ${what}: custom field (${field.id}) is of type ${field.type}`);
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string' || value.length > 10_000) throw wrong('a string of at most 10000 characters');
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw wrong('an integer');
      return value;
    case 'double':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('a number');
      return value;
    case 'date':
      if (typeof value !== 'string' || !isIsoDate(value)) throw wrong('an ISO 8601 date such as 2024-05-01 or 2024-05-01T12:00:00Z');
      return value;
    case 'enumeration': {
      if (typeof value !== 'string') throw wrong('the id of one of its enumeration items');
      const item = items.find((i) => i.id === value);
      if (!item) throw badRequest(`\`${key}\`: enumeration item (${value}) is not an item of custom field (${field.id})`);
      if (item.disabled && value !== keep) throw badRequest(`\`${key}\`: enumeration item (${value}) of custom field (${field.id}) is disabled`);
      return value;
    }
  }
}
