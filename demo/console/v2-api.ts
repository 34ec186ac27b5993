/**
 * The v2 API (docs/V2.md) as the console calls it: custom fields and topic board fields,
 * document libraries (items, revisions) and collections. JSON goes through api.ts's
 * `call`, bytes through its `blobOf` and upload.ts's `sendFile` (the token, refreshed once
 * on a 401, and the API's error messages handled in one place).
 */
import { blobOf, call, errorFrom } from './api.js';
import { sendFile } from './upload.js';

// The request and answer shapes are the platform's own (types only: nothing of the server is bundled).
import type { EnumerationItem, FieldPatch, FieldType } from '../../server/services/v2/custom-fields.js';
import type { BoardPatch } from '../../server/services/v2/board-fields.js';
export type { EnumerationItem, FieldPatch, FieldType, BoardPatch };
export interface CustomField { id: string; name: string; description: string; type: FieldType; createdAt: string; createdBy: string | null; archived: boolean }
export interface FieldInstance { id: string; disabled: boolean; required: boolean; defaultValue: unknown; itemBeforeId: string | null }
export interface TopicBoard { id: string; name: string; description: string; customFieldInstances: FieldInstance[]; customFields?: CustomField[] }

export interface Library { id: string; name: string; description: string; createdAt: string; createdBy: string | null }
export interface LibraryItem { id: string; libraryId: string; name: string; description: string; latestRevision: number; latestFileId: string | null; createdAt: string; createdBy: string | null }
export interface LibraryFile { id: string; revision: number; filename: string; size: number; createdAt: string; createdBy: string | null }
export interface Collection {
  id: string; name: string; description: string; finalized: boolean; followLatestRevision: boolean; visibility: 'private' | 'project-members';
  createdAt: string; createdBy: string | null; followers: string[]; shareUrl: string | null; shareExpiresAt: string | null;
}
export interface CollectionItem { id: string; libraryId: string; libraryItemId: string; fileId: string; createdAt: string; createdBy: string | null }
export interface CollectionFilter { finalized?: string; visibility?: string; search?: string }

const enc = encodeURIComponent;
const project = (id: string) => `/v2/projects/${enc(id)}`;
const field = (p: string, id: string) => `${project(p)}/custom-fields/${enc(id)}`;
const library = (p: string, id: string) => `${project(p)}/libraries/${enc(id)}`;
const item = (p: string, l: string, i: string) => `${library(p, l)}/items/${enc(i)}`;
const collection = (p: string, id: string) => `${project(p)}/libraries/collections/${enc(id)}`;

export const listFields = (p: string, archived: 'all' | 'archived' | 'not-archived' = 'all') => call<CustomField[]>('GET', `${project(p)}/custom-fields?archived=${archived}`);
export const createField = (p: string, body: { name: string; description?: string; type: FieldType }) => call<CustomField>('POST', `${project(p)}/custom-fields`, body);
export const patchField = (p: string, id: string, body: FieldPatch) => call<CustomField>('PATCH', field(p, id), body);
export const listItems = (p: string, id: string) => call<EnumerationItem[]>('GET', `${field(p, id)}/enumeration-items`);

export const readBoard = (p: string, board: string) => call<TopicBoard>('GET', `${project(p)}/issues/boards/${enc(board)}?include=customFields`);
export const patchBoard = (p: string, board: string, body: BoardPatch) => call<TopicBoard>('PATCH', `${project(p)}/issues/boards/${enc(board)}?include=customFields`, body);

export const listLibraries = (p: string) => call<Library[]>('GET', `${project(p)}/libraries`);
export const createLibrary = (p: string, name: string, description?: string) => call<Library>('POST', `${project(p)}/libraries`, { name, ...(description ? { description } : {}) });
export const listLibraryItems = (p: string, l: string) => call<LibraryItem[]>('GET', `${library(p, l)}/items`);
export const createLibraryItem = (p: string, l: string, name: string, description?: string) => call<LibraryItem>('POST', `${library(p, l)}/items`, { name, ...(description ? { description } : {}) });
export const listFiles = (p: string, l: string, i: string) => call<LibraryFile[]>('GET', `${item(p, l, i)}/files`);

/** A file's bytes, fetched with the token (never a URL holding it). */
export const downloadFile = (p: string, l: string, i: string, file: string) => blobOf(`${item(p, l, i)}/files/${enc(file)}`);

/**
 * A new revision of an item: the file as the body, its name in `?filename=`. Sent with
 * upload.ts's `sendFile` for its upload progress; a 401 refreshes the token once and sends again.
 */
export async function uploadFile(p: string, l: string, i: string, file: File, progress: (sent: number, total: number) => void): Promise<LibraryFile> {
  const answer = await sendFile('POST', `${item(p, l, i)}/files?filename=${enc(file.name)}`, file, ({ sent, total }) => progress(sent, total), 'The upload failed (network)');
  if (answer.status !== 201) throw errorFrom(answer.status, answer.statusText, answer.text);
  return JSON.parse(answer.text) as LibraryFile;
}

export function listCollections(p: string, filter: CollectionFilter): Promise<Collection[]> {
  const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as [string, string][]).toString();
  return call<Collection[]>('GET', `${project(p)}/libraries/collections${query ? `?${query}` : ''}`);
}
export const createCollection = (p: string, body: { name: string; description?: string; items: { libraryId: string; libraryItemId: string; fileId?: string }[]; followLatestRevision: boolean }) =>
  call<Collection>('POST', `${project(p)}/libraries/collections`, body);
export const patchCollection = (p: string, id: string, body: { finalized?: boolean; visibility?: string; shareExpiresAt?: string | null }) => call<Collection>('PATCH', collection(p, id), body);
export const listCollectionItems = (p: string, id: string) => call<CollectionItem[]>('GET', `${collection(p, id)}/items`);
