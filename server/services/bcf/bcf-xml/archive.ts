import type { BcfViewpoint } from '../../../../src/core/bcf/viewpoint-types.js';

/**
 * A BCF-XML file's content, whatever its version: what read.ts makes of a .bcf/.bcfzip and
 * write.ts writes as 2.1 or 3.0, and what the import and export move to and from a board.
 * Field names follow the BCF API's JSON (a topic's, a comment's, a viewpoint's), so that
 * the file and the API mean the same by each.
 */
export type BcfXmlVersion = '2.0' | '2.1' | '3.0';

export interface BcfArchive {
  version: BcfXmlVersion;
  project?: { id: string; name?: string };
  /** The values the file's extensions list (2.1's extensions schema, 3.0's extensions.xml). */
  extensions: ArchiveExtensions;
  /** 3.0's documents (and 2.1's files in the archive that a topic refers to). */
  documents: ArchiveDocument[];
  topics: ArchiveTopic[];
}

export interface ArchiveExtensions {
  topic_type: string[];
  topic_status: string[];
  priority: string[];
  topic_label: string[];
  users: string[];
  snippet_type: string[];
  stage: string[];
}

export interface ArchiveDocument {
  guid: string;
  filename: string;
  description?: string;
  bytes: Uint8Array;
}

export interface ArchiveTopic {
  guid: string;
  server_assigned_id?: string;
  topic_type?: string;
  topic_status?: string;
  reference_links: string[];
  title: string;
  priority?: string;
  index?: number;
  labels: string[];
  creation_date: string;
  creation_author: string;
  modified_date?: string;
  modified_author?: string;
  due_date?: string;
  assigned_to?: string;
  stage?: string;
  description?: string;
  bim_snippet?: { snippet_type: string; is_external: boolean; reference: string; reference_schema: string };
  document_references: { guid: string; document_guid?: string; url?: string; description?: string }[];
  related_topics: string[];
  comments: ArchiveComment[];
  viewpoints: ArchiveViewpoint[];
}

export interface ArchiveComment {
  guid: string;
  date: string;
  author: string;
  comment: string;
  viewpoint_guid?: string;
  modified_date?: string;
  modified_author?: string;
}

/** A viewpoint as the API writes it (bitmaps with their data), its snapshot apart as bytes. */
export interface ArchiveViewpoint {
  guid: string;
  index?: number;
  viewpoint: BcfViewpoint;
  snapshot?: { type: 'png' | 'jpg'; bytes: Uint8Array };
}

/** What is wrong with a BCF file: the import answers 400 with it and imports nothing. */
export class BcfFileError extends Error {}

export const emptyExtensions = (): ArchiveExtensions => ({ topic_type: [], topic_status: [], priority: [], topic_label: [], users: [], snippet_type: [], stage: [] });
