import type { Database, Sql } from '../../storage/database.js';
import { badRequest } from '../errors.js';
import { isUuid, type Board } from './boards.js';
import { topicRow } from './topics.js';

/**
 * Related topics (seed 001; BCF 2.1's and 3.0's related_topic schemas): a topic's list of
 * other topics of the same board, replaced whole by PUT. A related topic deleted later
 * drops out of the list (the join below), as it would from any client's view.
 */

/**
 * The guids of a topic's related topics that still exist; with `missing`, also those the
 * board does not have (a BCF file may relate topics of another file: its export keeps them).
 */
export async function listRelatedTopicGuids(sql: Sql, boardId: string, topicGuid: string, options: { missing?: boolean } = {}): Promise<string[]> {
  const rows = await sql.query<{ guid: string }>(
    `SELECT r.related_guid AS guid FROM bcf_related_topics r ${options.missing ? 'LEFT ' : ''}JOIN bcf_topics t ON t.board_id = r.board_id AND t.guid = r.related_guid
     WHERE r.board_id = $1 AND r.topic_guid = $2 ORDER BY t.creation_date NULLS LAST, r.related_guid`,
    [boardId, topicGuid],
  );
  return rows.map((r) => r.guid);
}

/** Replaces a topic's related topics as given (the BCF-XML import writes through this too, with guids it checked). */
export async function setRelatedTopicGuids(tx: Sql, boardId: string, topicGuid: string, guids: string[]): Promise<void> {
  await tx.query('DELETE FROM bcf_related_topics WHERE board_id = $1 AND topic_guid = $2', [boardId, topicGuid]);
  if (guids.length) {
    await tx.query('INSERT INTO bcf_related_topics (board_id, topic_guid, related_guid) SELECT $1, $2, g FROM unnest($3::uuid[]) g', [boardId, topicGuid, [...new Set(guids)]]);
  }
}

const json = (guids: string[]) => guids.map((related_topic_guid) => ({ related_topic_guid }));

export async function listRelatedTopics(sql: Sql, board: Board, topicGuid: string) {
  const topic = await topicRow(sql, board.id, topicGuid);
  return json(await listRelatedTopicGuids(sql, board.id, topic.guid));
}

/** PUT: each entry a topic of the same board, not the topic itself (400 otherwise). */
export async function putRelatedTopics(db: Database, board: Board, topicGuid: string, body: { related_topic_guid: string }[]) {
  return db.transaction(async (tx) => {
    const topic = await topicRow(tx, board.id, topicGuid);
    const guids = body.map((entry, i) => {
      const guid = entry.related_topic_guid;
      if (!isUuid(guid)) throw badRequest(`[${i}].related_topic_guid: ${JSON.stringify(guid)} is not a topic guid`);
      if (guid.toLowerCase() === topic.guid) throw badRequest(`[${i}].related_topic_guid: a topic is not related to itself`);
      return guid.toLowerCase();
    });
    const found = await tx.query<{ guid: string }>('SELECT guid FROM bcf_topics WHERE board_id = $1 AND guid = ANY($2::uuid[])', [board.id, guids]);
    const missing = guids.filter((g) => !found.some((f) => f.guid === g));
    if (missing.length) throw badRequest(`related_topic_guid: ${missing.join(', ')} ${missing.length === 1 ? 'is not a topic' : 'are not topics'} of the board`);
    await setRelatedTopicGuids(tx, board.id, topic.guid, guids);
    return json(await listRelatedTopicGuids(tx, board.id, topic.guid));
  });
}
