import type { BlobStore } from '../../../storage/blobs.js';
import { one, type Database, type Sql } from '../../../storage/database.js';
import { badRequest, conflict } from '../../errors.js';
import type { Board } from '../boards.js';
import { insertComment } from '../comments.js';
import { insertDocumentReference } from '../document-references.js';
import { insertDocument } from '../documents.js';
import { addImportedValue, type ValueKind } from '../extensions.js';
import { setRelatedTopicGuids } from '../related-topics.js';
import { recordEvent } from '../topic-events.js';
import { insertTopic, nextIssueNumber, type Caller } from '../topics.js';
import { parseBcfDate } from '../versions.js';
import { insertViewpoint } from '../viewpoints.js';
import { BcfFileError, type ArchiveTopic, type BcfArchive } from './archive.js';
import { readBcf } from './read.js';
import { fillRequiredValues } from '../../v2/board-fields.js';

/**
 * A BCF-XML file imported into a board, whole or not at all (one transaction): its
 * topics with their comments, viewpoints (snapshots and bitmaps), document references,
 * related topics and documents, guids, dates and authors as the file has them. A status,
 * type or user the board lacks becomes an unlinked entry of its extensions (seed 001's
 * state table); labels, priorities, stages and snippet types are added. A topic whose
 * guid the board has makes the import a 409.
 */
export interface ImportSummary {
  topics: number;
  comments: number;
  viewpoints: number;
  documents: number;
  /** Values the board lacked, by kind: unlinked for statuses, types and users. */
  added: Partial<Record<ValueKind, string[]>>;
}

export async function importBcf(db: Database, blobs: BlobStore, board: Board, caller: Caller, bytes: Uint8Array): Promise<ImportSummary> {
  let archive: BcfArchive;
  try {
    archive = readBcf(bytes);
  } catch (error) {
    if (error instanceof BcfFileError) throw badRequest(`Not imported: ${error.message}`);
    throw error;
  }
  return db.transaction(async (tx) => {
    for (const topic of archive.topics) {
      if (await one(tx, 'SELECT 1 FROM bcf_topics WHERE board_id = $1 AND guid = $2', [board.id, topic.guid])) throw conflict(`Not imported: the board has the topic ${topic.guid} (${JSON.stringify(topic.title)}) already`);
    }
    const members = new Map((await tx.query<{ email: string }>('SELECT u.email FROM users u JOIN project_members m ON m.user_id = u.id WHERE m.project_id = $1', [board.projectId])).map((u) => [u.email.toLowerCase(), u.email]));
    const added: ImportSummary['added'] = {};
    const known = new Set<string>();
    /** A value of the file, recorded on the board when it lacks it. */
    const value = async (kind: ValueKind, name: string | undefined): Promise<string | undefined> => {
      if (!name) return name;
      if (kind === 'user' && members.has(name.toLowerCase())) return members.get(name.toLowerCase());
      const key = `${kind}\u0000${name}`;
      if (!known.has(key)) {
        if (await addImportedValue(tx, board.id, kind, name)) (added[kind] ??= []).push(name);
        known.add(key);
      }
      return name;
    };
    const e = archive.extensions;
    for (const [kind, names] of [['type', e.topic_type], ['status', e.topic_status], ['priority', e.priority], ['label', e.topic_label], ['user', e.users], ['snippet_type', e.snippet_type], ['stage', e.stage]] as const) {
      for (const name of names) await value(kind, name);
    }

    const documents = new Set(archive.documents.map((d) => d.guid));
    for (const document of archive.documents) {
      if (await one(tx, 'SELECT 1 FROM bcf_documents WHERE board_id = $1 AND guid = $2', [board.id, document.guid])) throw conflict(`Not imported: the board has the document ${document.guid} already`);
      await insertDocument(tx, blobs, board.id, { guid: document.guid, filename: document.filename, description: document.description }, Buffer.from(document.bytes));
    }

    const summary: ImportSummary = { topics: 0, comments: 0, viewpoints: 0, documents: archive.documents.length, added };
    const now = new Date();
    for (const topic of archive.topics) {
      await importTopic(tx, blobs, board, caller, topic, value, documents, now);
      summary.topics++;
      summary.comments += topic.comments.length;
      summary.viewpoints += topic.viewpoints.length;
    }
    // A file carries no custom-field values: the imported topics take the required ones' defaults.
    await fillRequiredValues(tx, board.id);
    return summary;
  });
}

const date = (text: string | undefined, what: string): Date | null => {
  if (!text) return null;
  const parsed = parseBcfDate(text);
  if (Number.isNaN(parsed.getTime())) throw badRequest(`Not imported: ${what} is not a date: ${JSON.stringify(text)}`);
  return parsed;
};

async function importTopic(
  tx: Sql, blobs: BlobStore, board: Board, caller: Caller, topic: ArchiveTopic,
  value: (kind: ValueKind, name: string | undefined) => Promise<string | undefined>, documents: Set<string>, now: Date,
) {
  const what = `topic ${topic.guid}`;
  const number = await nextIssueNumber(tx, board.id);
  const creationDate = date(topic.creation_date, `the CreationDate of ${what}`)!;
  const author = (await value('user', topic.creation_author)) ?? '';
  const labels: string[] = [];
  for (const label of topic.labels) labels.push((await value('label', label))!);
  await insertTopic(tx, board.id, topic.guid, number, {
    topic_type: (await value('type', topic.topic_type)) ?? null,
    topic_status: (await value('status', topic.topic_status)) ?? null,
    reference_links: topic.reference_links,
    title: topic.title,
    index: topic.index ?? null,
    labels,
    creation_date: creationDate,
    creation_author: author,
    modified_date: date(topic.modified_date, `the ModifiedDate of ${what}`),
    modified_author: (await value('user', topic.modified_author)) ?? null,
    assigned_to: (await value('user', topic.assigned_to)) ?? null,
    description: topic.description ?? null,
    due_date: date(topic.due_date, `the DueDate of ${what}`),
    stage: (await value('stage', topic.stage)) ?? null,
    priority: (await value('priority', topic.priority)) ?? null,
    bim_snippet: topic.bim_snippet ? { ...topic.bim_snippet, snippet_type: (await value('snippet_type', topic.bim_snippet.snippet_type))! } : null,
    requester: null,
    imported_by: caller.email,
    imported_at: now,
  });
  await recordEvent(tx, board.id, topic.guid, author, [{ type: 'topic_created' }], creationDate);

  for (const v of topic.viewpoints) {
    const { bitmaps, ...viewpoint } = v.viewpoint;
    await insertViewpoint(tx, blobs, board.id, topic.guid, {
      ...viewpoint,
      guid: v.guid,
      index: v.index ?? null,
      snapshot: v.snapshot ? { snapshot_type: v.snapshot.type, bytes: Buffer.from(v.snapshot.bytes) } : null,
      bitmaps: bitmaps?.map(({ bitmap_data, ...bitmap }) => ({ ...bitmap, bytes: Buffer.from(bitmap_data ?? '', 'base64') })) ?? null,
    });
  }
  const viewpoints = new Set(topic.viewpoints.map((v) => v.guid));
  for (const c of topic.comments) {
    await insertComment(tx, board.id, {
      guid: c.guid,
      topic_guid: topic.guid,
      date: date(c.date, `the Date of comment ${c.guid}`)!,
      author: (await value('user', c.author)) ?? '',
      comment: c.comment,
      // A link to a viewpoint the file does not have is dropped, not kept dangling.
      viewpoint_guid: c.viewpoint_guid && viewpoints.has(c.viewpoint_guid) ? c.viewpoint_guid : null,
      reply_to_comment_guid: null,
      modified_date: date(c.modified_date, `the ModifiedDate of comment ${c.guid}`),
      modified_author: (await value('user', c.modified_author)) ?? null,
    });
  }
  for (const r of topic.document_references) {
    if (r.document_guid && !documents.has(r.document_guid)) throw badRequest(`Not imported: ${what} refers to the document ${r.document_guid}, which the file does not have`);
    await insertDocumentReference(tx, board.id, { guid: r.guid, topic_guid: topic.guid, document_guid: r.document_guid ?? null, url: r.document_guid ? null : (r.url ?? ''), description: r.description ?? null });
  }
  await setRelatedTopicGuids(tx, board.id, topic.guid, topic.related_topics);
}
