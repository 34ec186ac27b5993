import type { BlobStore } from '../../../storage/blobs.js';
import type { Sql } from '../../../storage/database.js';
import { badRequest } from '../../errors.js';
import type { Board } from '../boards.js';
import { listCommentRows } from '../comments.js';
import { listDocumentReferenceRows } from '../document-references.js';
import { listDocumentRows, readDocument } from '../documents.js';
import { allowedValues } from '../extensions.js';
import { listRelatedTopicGuids } from '../related-topics.js';
import { topicRow, type TopicRow } from '../topics.js';
import { listViewpointRows, readViewpointImage } from '../viewpoints.js';
import type { ArchiveTopic, BcfArchive } from './archive.js';
import { writeBcf } from './write.js';

/**
 * A board, or some of its topics, as a BCF-XML file of version 2.1 or 3.0: each topic
 * with its comments, viewpoints (snapshots, bitmaps), document references and related
 * topics; the documents the topics refer to; the board's extension values.
 */
export async function exportBcf(sql: Sql, blobs: BlobStore, board: Board, version: '2.1' | '3.0', topicGuids?: string[]): Promise<Uint8Array> {
  const rows = topicGuids
    ? await Promise.all(topicGuids.map((guid) => topicRow(sql, board.id, guid)))
    : await sql.query<TopicRow>('SELECT t.* FROM bcf_topics t WHERE t.board_id = $1 ORDER BY t.issue_number', [board.id]);
  if (!rows.length) throw badRequest('The board has no topics to export');
  const topics: ArchiveTopic[] = [];
  for (const row of rows) topics.push(await archiveTopic(sql, blobs, board, row));
  const referenced = new Set(topics.flatMap((t) => t.document_references.map((r) => r.document_guid)));
  const documents = [];
  for (const document of await listDocumentRows(sql, board.id)) {
    if (referenced.has(document.guid)) documents.push({ guid: document.guid, filename: document.filename, description: document.description ?? undefined, bytes: await readDocument(blobs, document) });
  }
  const values = await allowedValues(sql, board.id, board.projectId);
  const archive: BcfArchive = {
    version,
    project: { id: board.id, name: board.name },
    extensions: { topic_type: values.type, topic_status: values.status, priority: values.priority, topic_label: values.label, users: values.users, snippet_type: values.snippet_type, stage: values.stage },
    documents,
    topics,
  };
  return writeBcf(archive, version);
}

const iso = (date: Date | null) => date?.toISOString();
const orUndefined = <T>(value: T | null) => value ?? undefined;

async function archiveTopic(sql: Sql, blobs: BlobStore, board: Board, t: TopicRow): Promise<ArchiveTopic> {
  const viewpoints = [];
  for (const row of await listViewpointRows(sql, board.id, t.guid)) {
    const snapshot = await readViewpointImage(blobs, board.id, row);
    const bitmaps = [];
    for (const { guid, ...bitmap } of row.data.bitmaps ?? []) {
      const image = await readViewpointImage(blobs, board.id, row, guid);
      bitmaps.push({ ...bitmap, bitmap_data: image ? image.bytes.toString('base64') : '' });
    }
    viewpoints.push({
      guid: row.guid,
      index: orUndefined(row.index),
      viewpoint: { ...row.data, bitmaps: bitmaps.length ? bitmaps : undefined },
      snapshot: snapshot ? { type: snapshot.type, bytes: snapshot.bytes } : undefined,
    });
  }
  return {
    guid: t.guid,
    server_assigned_id: String(t.issue_number),
    topic_type: orUndefined(t.topic_type),
    topic_status: orUndefined(t.topic_status),
    reference_links: t.reference_links,
    title: t.title,
    priority: orUndefined(t.priority),
    index: orUndefined(t.index),
    labels: t.labels,
    creation_date: t.creation_date.toISOString(),
    creation_author: t.creation_author,
    modified_date: iso(t.modified_date),
    modified_author: orUndefined(t.modified_author),
    due_date: iso(t.due_date),
    assigned_to: orUndefined(t.assigned_to),
    stage: orUndefined(t.stage),
    description: orUndefined(t.description),
    bim_snippet: orUndefined(t.bim_snippet),
    document_references: (await listDocumentReferenceRows(sql, board.id, t.guid)).map((r) => ({ guid: r.guid, document_guid: orUndefined(r.document_guid), url: orUndefined(r.url), description: orUndefined(r.description) })),
    related_topics: await listRelatedTopicGuids(sql, board.id, t.guid, { missing: true }),
    comments: (await listCommentRows(sql, board.id, t.guid)).map((c) => ({
      guid: c.guid,
      date: c.date.toISOString(),
      author: c.author,
      comment: c.comment,
      viewpoint_guid: orUndefined(c.viewpoint_guid),
      modified_date: iso(c.modified_date),
      modified_author: orUndefined(c.modified_author),
    })),
    viewpoints,
  };
}
