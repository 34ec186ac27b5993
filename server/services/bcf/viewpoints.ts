import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BcfBitmap, BcfComponent, BcfComponents, BcfViewpoint } from '../../../src/core/bcf/viewpoint-types.js';
import type { BlobStore } from '../../storage/blobs.js';
import { one, type Database, type Sql } from '../../storage/database.js';
import { badRequest, conflict, notFound, tooLarge } from '../errors.js';
import { checkGuid, isUuid, type Board } from './boards.js';
import { recordEvent } from './topic-events.js';
import { topicRow, type Caller } from './topics.js';

/**
 * Viewpoints of a topic (seed 001): cameras, lines, clipping planes, bitmaps and components
 * kept as JSON; the snapshot and the bitmaps' images as blobs, served by their own
 * resources. Each viewpoint also keeps its model references (addition): which models
 * and revisions it shows, guessed at creation from its components' GlobalIds.
 */

/** Largest snapshot or bitmap image, decoded (413 beyond); the POST body may hold a few. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export type ImageType = 'png' | 'jpg';
export const IMAGE_CONTENT_TYPES: Record<ImageType, string> = { png: 'image/png', jpg: 'image/jpeg' };

/** A model reference (addition, [2.1]): revisionRef is the revision's id, as text. */
export interface ModelRef {
  modelRef: string;
  revisionRef: string;
}

/** What is stored of a viewpoint besides its guid: the JSON without the images' bytes. */
export interface StoredViewpoint extends Omit<BcfViewpoint, 'guid' | 'snapshot' | 'bitmaps'> {
  bitmaps?: (Omit<BcfBitmap, 'bitmap_data'> & { guid: string })[] | null;
}

export interface ViewpointRow {
  guid: string;
  topic_guid: string;
  index: number | null;
  data: StoredViewpoint;
  snapshot_type: ImageType | null;
  snapshot_key: string | null;
  models: ModelRef[];
}

/** A viewpoint to insert: the API's POST body with the images as bytes. */
export interface NewViewpoint extends Omit<BcfViewpoint, 'snapshot' | 'bitmaps'> {
  snapshot?: { snapshot_type: ImageType; bytes: Buffer } | null;
  bitmaps?: (Omit<BcfBitmap, 'bitmap_data'> & { bytes: Buffer })[] | null;
}

const COLUMNS = 'guid, topic_guid, index, data, snapshot_type, snapshot_key, models';

const snapshotKey = (boardId: string, guid: string) => `bcf/${boardId}/viewpoints/${guid}/snapshot`;
const bitmapKey = (boardId: string, guid: string, bitmapGuid: string) => `bcf/${boardId}/viewpoints/${guid}/bitmaps/${bitmapGuid}`;

/** A topic's viewpoint rows in creation order (the BCF-XML export reads these; images with readViewpointImage). */
export function listViewpointRows(sql: Sql, boardId: string, topicGuid: string): Promise<ViewpointRow[]> {
  return sql.query<ViewpointRow>(`SELECT ${COLUMNS} FROM bcf_viewpoints WHERE board_id = $1 AND topic_guid = $2 ORDER BY created_at, guid`, [boardId, topicGuid]);
}

/** The bytes of a viewpoint's snapshot (no `bitmapGuid`) or of one of its bitmaps; null when it has none. */
export async function readViewpointImage(blobs: BlobStore, boardId: string, row: ViewpointRow, bitmapGuid?: string): Promise<{ type: ImageType; bytes: Buffer } | null> {
  if (bitmapGuid === undefined) return row.snapshot_key && row.snapshot_type ? { type: row.snapshot_type, bytes: await blobs.read(row.snapshot_key) } : null;
  const bitmap = row.data.bitmaps?.find((b) => b.guid === bitmapGuid);
  return bitmap ? { type: bitmap.bitmap_type, bytes: await blobs.read(bitmapKey(boardId, row.guid, bitmap.guid)) } : null;
}

/**
 * Writes a viewpoint as given (guid included) with its images, and its best-guess model
 * references, in the caller's transaction. The row goes in first: it takes the guid's key,
 * so a request writing the same guid at the same moment waits for this one and fails
 * before it writes any image (it overwrote this one's images when they came first). The
 * images follow before the transaction commits: readers never see a row without its
 * images, and a transaction that fails leaves them behind unreferenced.
 */
export async function insertViewpoint(tx: Sql, blobs: BlobStore, boardId: string, topicGuid: string, viewpoint: NewViewpoint & { guid: string }): Promise<ViewpointRow> {
  const { guid, snapshot, bitmaps, index, ...rest } = viewpoint;
  const stored: StoredViewpoint = { ...rest };
  const images: { key: string; bytes: Buffer }[] = [];
  if (bitmaps?.length) {
    stored.bitmaps = [];
    for (const { bytes, ...bitmap } of bitmaps) {
      const bitmapGuid = bitmap.guid && isUuid(bitmap.guid) ? bitmap.guid.toLowerCase() : randomUUID();
      images.push({ key: bitmapKey(boardId, guid, bitmapGuid), bytes });
      stored.bitmaps.push({ ...bitmap, guid: bitmapGuid });
    }
  }
  const key = snapshot ? snapshotKey(boardId, guid) : null;
  if (snapshot) images.push({ key: key!, bytes: snapshot.bytes });
  const row: ViewpointRow = { guid, topic_guid: topicGuid, index: index ?? null, data: stored, snapshot_type: snapshot?.snapshot_type ?? null, snapshot_key: key, models: await guessModels(tx, boardId, stored.components) };
  await tx.query(`INSERT INTO bcf_viewpoints (board_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    boardId, row.guid, row.topic_guid, row.index, JSON.stringify(row.data), row.snapshot_type, row.snapshot_key, JSON.stringify(row.models),
  ]);
  for (const image of images) await blobs.put(image.key, Readable.from([image.bytes]));
  return row;
}

// ---- model references (addition) ---------------------------------------------------------

/** The GlobalIds a viewpoint selects, colours or shows as exceptions to hiding everything. */
function shownGlobalIds(components: BcfComponents | null | undefined): string[] {
  if (!components) return [];
  const ids = (list: BcfComponent[] | null | undefined) => (list ?? []).map((c) => c.ifc_guid).filter((id): id is string => typeof id === 'string' && id !== '');
  const visible = components.visibility?.default_visibility ? [] : ids(components.visibility?.exceptions);
  return [...new Set([...ids(components.selection), ...(components.coloring ?? []).flatMap((c) => ids(c.components)), ...visible])];
}

/** Seed 001's best guess: the models of the board's platform project whose revisions hold any of those GlobalIds, each with the last such revision. */
async function guessModels(sql: Sql, boardId: string, components: BcfComponents | null | undefined): Promise<ModelRef[]> {
  const globalIds = shownGlobalIds(components);
  if (!globalIds.length) return [];
  const rows = await sql.query<{ model_id: string; revision_id: number }>(
    `SELECT p.model_id, max(r.id) AS revision_id FROM bcf_boards b
       JOIN models m ON m.project_id = b.project_id
       JOIN products p ON p.model_id = m.id
       JOIN revisions r ON r.model_id = p.model_id AND r.id = p.revision_id
     WHERE b.id = $1 AND p.global_id = ANY($2::text[])
     GROUP BY p.model_id ORDER BY p.model_id`,
    [boardId, globalIds],
  );
  return rows.map((r) => ({ modelRef: r.model_id, revisionRef: String(r.revision_id) }));
}

/** PUT .../models: every model of the board's platform project; a missing revisionRef becomes the model's last revision. */
export async function setModels(sql: Sql, board: Board, topicGuid: string, guid: string, body: unknown): Promise<ModelRef[]> {
  const row = await viewpointRow(sql, board.id, topicGuid, guid);
  if (!Array.isArray(body)) throw badRequest('The body must be an array of {modelRef, revisionRef}');
  const models: ModelRef[] = [];
  for (const [i, entry] of body.entries()) {
    const { modelRef, revisionRef } = (entry ?? {}) as Record<string, unknown>;
    if (typeof modelRef !== 'string' || (revisionRef !== undefined && revisionRef !== null && typeof revisionRef !== 'string')) throw badRequest(`[${i}]: \`modelRef\` (a string) is required, \`revisionRef\` is a string`);
    const model = await one<{ last: number | null }>(sql, 'SELECT (SELECT max(r.id) FROM revisions r WHERE r.model_id = m.id) AS last FROM models m WHERE m.id = $1 AND m.project_id = $2', [modelRef, board.projectId]);
    if (!model) throw badRequest(`[${i}].modelRef: ${modelRef} is not a model of the board's platform project`);
    if (revisionRef === undefined || revisionRef === null) {
      if (model.last === null) throw badRequest(`[${i}]: the model ${modelRef} has no revision; name one in \`revisionRef\``);
      models.push({ modelRef, revisionRef: String(model.last) });
      continue;
    }
    if (!/^\d{1,9}$/.test(revisionRef) || !(await one(sql, 'SELECT 1 FROM revisions WHERE model_id = $1 AND id = $2', [modelRef, Number(revisionRef)]))) {
      throw badRequest(`[${i}].revisionRef: ${revisionRef} is not a revision of the model ${modelRef}`);
    }
    models.push({ modelRef, revisionRef });
  }
  await sql.query('UPDATE bcf_viewpoints SET models = $3 WHERE board_id = $1 AND guid = $2', [board.id, row.guid, JSON.stringify(models)]);
  return models;
}

// ---- reading -------------------------------------------------------------------------------

export async function viewpointRow(sql: Sql, boardId: string, topicGuid: string, guid: string): Promise<ViewpointRow> {
  const topic = await topicRow(sql, boardId, topicGuid);
  const row = isUuid(guid) ? await one<ViewpointRow>(sql, `SELECT ${COLUMNS} FROM bcf_viewpoints WHERE board_id = $1 AND topic_guid = $2 AND guid = $3`, [boardId, topic.guid, guid.toLowerCase()]) : undefined;
  if (!row) throw notFound('Viewpoint', guid);
  return row;
}

/**
 * A viewpoint as the caller's version writes it. 2.1 and 3.0: the stored JSON (components
 * included, which their GET schema allows beside its own members) with `snapshot:
 * {snapshot_type}`. 2.0 follows API 1.0's viewpoint_GET: lines and clipping planes
 * wrapped in `{line: [...]}` and `{clipping_plane: [...]}`, components and the snapshot
 * as resources of their own, no bitmaps (1.0's single `bitmap` wants an integer height).
 */
export function viewpointJson(row: ViewpointRow, caller: Caller): Record<string, unknown> {
  const { lines, clipping_planes, bitmaps, components, ...cameras } = row.data;
  if (caller.version === '2.0') {
    return {
      guid: row.guid,
      ...cameras,
      ...(lines ? { lines: { line: lines } } : {}),
      ...(clipping_planes ? { clipping_planes: { clipping_plane: clipping_planes } } : {}),
    };
  }
  return {
    guid: row.guid,
    ...(row.index === null ? {} : { index: row.index }),
    ...row.data,
    snapshot: row.snapshot_type ? { snapshot_type: row.snapshot_type } : {},
    ...(caller.version === '3.0' ? { authorization: { viewpoint_actions: ['delete'] } } : {}),
  };
}

export async function listViewpoints(sql: Sql, board: Board, caller: Caller, topicGuid: string) {
  const topic = await topicRow(sql, board.id, topicGuid);
  return (await listViewpointRows(sql, board.id, topic.guid)).map((row) => viewpointJson(row, caller));
}

/**
 * 2.0's components resource (API 1.0's component_GET): one entry a component the viewpoint
 * names, with whether it is selected, visible and its colour.
 */
export function componentList(data: StoredViewpoint): Record<string, unknown>[] {
  const components = data.components;
  if (!components) return [];
  // One entry an object: its GlobalId names it, else its authoring tool's id.
  const key = (c: BcfComponent) => c.ifc_guid || JSON.stringify([c.originating_system ?? null, c.authoring_tool_id ?? null]);
  const entries = new Map<string, Record<string, unknown>>();
  const entry = (c: BcfComponent) => {
    const found = entries.get(key(c)) ?? { selected: false, visible: components.visibility?.default_visibility ?? false };
    const merged = Object.assign(found, Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null && v !== undefined)));
    entries.set(key(c), merged);
    return merged;
  };
  for (const c of components.visibility?.exceptions ?? []) entry(c).visible = !(components.visibility?.default_visibility ?? false);
  for (const c of components.selection ?? []) entry(c).selected = true;
  for (const coloring of components.coloring ?? []) for (const c of coloring.components ?? []) entry(c).color = coloring.color;
  return [...entries.values()];
}

// ---- create, delete --------------------------------------------------------------------------

type Body = Record<string, unknown>;

/** Base64 that decodes to an image of its type, within the size limit. */
function image(data: unknown, type: ImageType, field: string): Buffer {
  if (typeof data !== 'string' || data.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw badRequest(`\`${field}\` must be base64`);
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > IMAGE_MAX_BYTES) throw tooLarge(`\`${field}\`: the image is larger than ${IMAGE_MAX_BYTES} bytes`);
  const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const isJpg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (type === 'png' ? !isPng : !isJpg) throw badRequest(`\`${field}\` is not a ${type === 'png' ? 'PNG' : 'JPEG'} image`);
  return bytes;
}

/**
 * The POST body as a viewpoint to insert, only the members BCF knows. Its shapes are the
 * route's schema's to check (which also refuses JSON's 1e400, parsed as Infinity, as no number).
 */
function newViewpoint(body: Body): NewViewpoint & { guid: string } {
  const v = body as BcfViewpoint;
  const snapshot = v.snapshot?.snapshot_type ? { snapshot_type: v.snapshot.snapshot_type, bytes: image(v.snapshot.snapshot_data, v.snapshot.snapshot_type, 'snapshot.snapshot_data') } : null;
  const bitmaps = v.bitmaps?.map(({ bitmap_data, guid: _guid, ...b }, i) => ({ ...b, bytes: image(bitmap_data, b.bitmap_type, `bitmaps[${i}].bitmap_data`) }));
  const optional = <K extends keyof BcfViewpoint>(key: K) => (v[key] === undefined || v[key] === null ? {} : { [key]: v[key] });
  return {
    guid: v.guid === undefined || v.guid === null ? randomUUID() : checkGuid(v.guid),
    index: v.index ?? null,
    ...optional('orthogonal_camera'),
    ...optional('perspective_camera'),
    ...optional('lines'),
    ...optional('clipping_planes'),
    ...optional('components'),
    ...(bitmaps?.length ? { bitmaps } : {}),
    snapshot,
  };
}

export async function createViewpoint(db: Database, blobs: BlobStore, board: Board, caller: Caller, topicGuid: string, body: Body) {
  const viewpoint = newViewpoint(body);
  const row = await db.transaction(async (tx) => {
    const topic = await topicRow(tx, board.id, topicGuid);
    if (await one(tx, 'SELECT 1 FROM bcf_viewpoints WHERE board_id = $1 AND guid = $2', [board.id, viewpoint.guid])) throw conflict(`A viewpoint with the guid ${viewpoint.guid} exists`);
    const inserted = await insertViewpoint(tx, blobs, board.id, topic.guid, viewpoint);
    await recordEvent(tx, board.id, topic.guid, caller.email, [{ type: 'viewpoint_added', value: inserted.guid }]);
    return inserted;
  });
  return viewpointJson(row, caller);
}

/** DELETE (3.0): comments that showed it no longer link to it; its images go too. */
export async function deleteViewpoint(db: Database, blobs: BlobStore, board: Board, topicGuid: string, guid: string): Promise<void> {
  const row = await db.transaction(async (tx) => {
    const found = await viewpointRow(tx, board.id, topicGuid, guid);
    await tx.query('UPDATE bcf_comments SET viewpoint_guid = NULL WHERE board_id = $1 AND viewpoint_guid = $2', [board.id, found.guid]);
    await tx.query('DELETE FROM bcf_viewpoints WHERE board_id = $1 AND guid = $2', [board.id, found.guid]);
    return found;
  });
  for (const key of imageKeys(board.id, row)) await blobs.delete(key);
}

/** The blob keys of a viewpoint's snapshot and bitmaps. */
export const imageKeys = (boardId: string, row: ViewpointRow): string[] => [
  ...(row.snapshot_key ? [row.snapshot_key] : []),
  ...(row.data.bitmaps ?? []).map((b) => bitmapKey(boardId, row.guid, b.guid)),
];
