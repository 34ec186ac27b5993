import type { Sql } from '../../storage/database.js';
import { isUuid } from './boards.js';
import { imageKeys, listViewpointRows, type ViewpointRow } from './viewpoints.js';

/**
 * The files boards keep in blob storage (viewpoint snapshots and bitmaps, documents), so
 * that they go with the topic or the project whose rows the database deletes.
 */
export async function topicFileKeys(sql: Sql, boardId: string, topicGuid: string): Promise<string[]> {
  if (!isUuid(topicGuid)) return [];
  return (await listViewpointRows(sql, boardId, topicGuid)).flatMap((row) => imageKeys(boardId, row));
}

export async function projectFileKeys(sql: Sql, projectId: string): Promise<string[]> {
  const viewpoints = await sql.query<ViewpointRow & { board_id: string }>(
    'SELECT v.board_id, v.guid, v.data, v.snapshot_key FROM bcf_viewpoints v JOIN bcf_boards b ON b.id = v.board_id WHERE b.project_id = $1',
    [projectId],
  );
  const documents = await sql.query<{ blob_key: string }>('SELECT d.blob_key FROM bcf_documents d JOIN bcf_boards b ON b.id = d.board_id WHERE b.project_id = $1', [projectId]);
  return [...viewpoints.flatMap((row) => imageKeys(row.board_id, row)), ...documents.map((d) => d.blob_key)];
}
