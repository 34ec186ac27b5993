/**
 * The BCF API 3.0 (docs/BCF.md) as the issues panel calls it. JSON calls go through
 * api.ts's `call` and files and images through its `authorizedFetch`, so the access token
 * (Bearer, refreshed once on a 401) and the error messages are handled in one place.
 */
import type { BcfViewpoint } from '../../../src/index.js';
import { authorizedFetch, blobOf, call, errorFrom } from '../api.js';

export interface Board { project_id: string; name: string; platform_project_id: string }
export interface Extensions { topic_type: string[]; topic_status: string[]; user_id_type: string[]; topic_label: string[] }
export interface Topic {
  guid: string;
  platform_issue_number: number;
  title: string;
  topic_type?: string;
  topic_status?: string;
  assigned_to?: string;
  labels?: string[];
  description?: string;
  creation_author?: string;
  creation_date?: string;
  modified_date?: string;
  [field: string]: unknown;
}
/** A stored viewpoint: the viewer's JSON plus its guid; `snapshot` only says whether there is one. */
export type StoredViewpoint = Omit<BcfViewpoint, 'snapshot'> & { guid: string; snapshot?: { snapshot_type?: string } };
export interface Comment { guid: string; date: string; author: string; comment: string; viewpoint_guid?: string | null }
export interface ImportSummary { topics: number; comments: number; viewpoints: number; documents: number; added: Record<string, string[]> }
export interface TopicFilter { status?: string; type?: string; assignee?: string; label?: string }

const BCF = '/bcf/3.0';
const enc = encodeURIComponent;
const board = (id: string) => `${BCF}/projects/${enc(id)}`;
const topicPath = (boardId: string, guid: string) => `${board(boardId)}/topics/${enc(guid)}`;

export const listBoards = (platformProjectId: string) => call<Board[]>('GET', `${BCF}/projects?platform_project_id=${enc(platformProjectId)}`);
/** Boards are created through 2.0, the version that has the resource (seed 001). */
export const createBoard = (platformProjectId: string, name: string) => call<Board>('POST', '/bcf/2.0/projects', { name, platform_project_id: platformProjectId });
export const extensions = (boardId: string) => call<Extensions>('GET', `${board(boardId)}/extensions`);

/** An OData string literal: quotes doubled. */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * The `$filter` of a topic list. 3.0 needs one (docs/BCF.md, "Topic lists"): with no
 * choice made it is `platform_issue_number ge 1`, true of every topic.
 */
function topicFilter(filter: TopicFilter): string {
  const parts: string[] = [];
  if (filter.status) parts.push(`topic_status eq ${literal(filter.status)}`);
  if (filter.type) parts.push(`topic_type eq ${literal(filter.type)}`);
  if (filter.assignee) parts.push(`assigned_to eq ${literal(filter.assignee)}`);
  if (filter.label) parts.push(`labels/any(l: l eq ${literal(filter.label)})`);
  return parts.length ? parts.join(' and ') : 'platform_issue_number ge 1';
}

export const listTopics = (boardId: string, filter: TopicFilter) =>
  call<Topic[]>('GET', `${board(boardId)}/topics?${new URLSearchParams({ $filter: topicFilter(filter), $orderby: 'platform_issue_number asc' })}`);
export const readTopic = (boardId: string, guid: string) => call<Topic>('GET', topicPath(boardId, guid));
export const createTopic = (boardId: string, fields: Partial<Topic>) => call<Topic>('POST', `${board(boardId)}/topics`, fields);

/** The fields a topic's PUT takes: PUT replaces, so everything the topic has is sent back (docs/BCF.md). */
const WRITABLE = ['title', 'topic_type', 'topic_status', 'assigned_to', 'description', 'reference_links', 'priority', 'index', 'labels', 'stage', 'bim_snippet', 'due_date', 'platform_requester'];

/** The topic with some fields changed, every other field kept. */
export function updateTopic(boardId: string, topic: Topic, changes: Partial<Topic>): Promise<Topic> {
  const body: Record<string, unknown> = {};
  for (const key of WRITABLE) if (topic[key] !== undefined && topic[key] !== null) body[key] = topic[key];
  return call<Topic>('PUT', topicPath(boardId, topic.guid), { ...body, ...changes });
}

export const listViewpoints = (boardId: string, topicGuid: string) => call<StoredViewpoint[]>('GET', `${topicPath(boardId, topicGuid)}/viewpoints`);
export const createViewpoint = (boardId: string, topicGuid: string, viewpoint: BcfViewpoint) =>
  call<StoredViewpoint>('POST', `${topicPath(boardId, topicGuid)}/viewpoints`, viewpoint);

export const listComments = (boardId: string, topicGuid: string) => call<Comment[]>('GET', `${topicPath(boardId, topicGuid)}/comments`);
export const createComment = (boardId: string, topicGuid: string, comment: string, viewpointGuid?: string) =>
  call<Comment>('POST', `${topicPath(boardId, topicGuid)}/comments`, { comment, ...(viewpointGuid ? { viewpoint_guid: viewpointGuid } : {}) });

export const snapshot = (boardId: string, topicGuid: string, viewpointGuid: string) =>
  blobOf(`${topicPath(boardId, topicGuid)}/viewpoints/${enc(viewpointGuid)}/snapshot`);

export const exportBcf = (boardId: string, version: '2.1' | '3.0') => blobOf(`${board(boardId)}/export?version=${version}`);

/** A .bcf/.bcfzip file sent as the body (docs/BCF.md, "BCF files"). */
export async function importBcf(boardId: string, file: Blob): Promise<ImportSummary> {
  const answer = await authorizedFetch(`${board(boardId)}/import`, { method: 'POST', body: file, headers: { 'Content-Type': 'application/octet-stream' } });
  const text = await answer.text();
  if (!answer.ok) throw errorFrom(answer.status, answer.statusText, text);
  return JSON.parse(text) as ImportSummary;
}
