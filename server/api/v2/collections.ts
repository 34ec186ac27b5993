import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { strictBodies } from './strict-body.js';
import { requestOrigin } from '../origin.js';
import type { CollectionQuery } from '../../services/v2/collection-filter.js';
import { COLLECTION_ITEMS_MAX, createCollection, getCollection, listCollectionItems, listCollections, setFollowing, updateCollection, type CollectionChange, type NewCollection } from '../../services/v2/collections.js';

const tags = ['v2 library item collections'];
const id = { type: 'string', maxLength: 64 } as const;
const date = { type: 'string', format: 'date-time' } as const;
const userId = { type: ['string', 'null'] } as const;
const list = (description: string) => ({ type: 'string', maxLength: 10_000, description }) as const;

const projectParams = { type: 'object', properties: { project: id }, required: ['project'] } as const;
const collectionParams = { type: 'object', properties: { project: id, collection: id }, required: ['project', 'collection'] } as const;

const listQuery = {
  type: 'object',
  properties: {
    finalized: { type: 'boolean' },
    libraryItems: list('comma-separated library item ids: collections holding any of them'),
    files: list('comma-separated file ids: collections whose items are at any of them (the latest, for collections that follow)'),
    createdAtFrom: { type: 'string', maxLength: 64, description: 'ISO 8601: created at or after the start of this date or time' },
    createdAtTo: { type: 'string', maxLength: 64, description: 'ISO 8601: created before the end of this date or time (a day, minute, second or millisecond)' },
    createdBy: list('comma-separated user ids'),
    followLatestRevision: { type: 'boolean' },
    visibility: list('comma-separated: private, project-members'),
    sharedBy: list('comma-separated: link (a share link that works now), email (none: the platform shares by link), not-shared'),
    followers: list('comma-separated user ids: collections any of them follows'),
    search: { type: 'string', maxLength: 255, description: 'text in the name (case-insensitive)' },
    fields: { type: 'string', maxLength: 64, description: '`id`: each collection as {id}' },
  },
  additionalProperties: false,
} as const;

const newItem = {
  type: 'object',
  properties: { libraryId: id, libraryItemId: id, fileId: { ...id, description: 'a file (revision) of the item; default: its latest' } },
  required: ['libraryId', 'libraryItemId'],
  additionalProperties: false,
} as const;
const createBody = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    description: { type: 'string', maxLength: 10_000 },
    items: { type: 'array', items: newItem, maxItems: COLLECTION_ITEMS_MAX },
    followLatestRevision: { type: 'boolean', default: false },
  },
  required: ['name'],
  additionalProperties: false,
} as const;
const patchBody = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    description: { type: 'string', maxLength: 10_000 },
    finalized: { type: 'boolean', description: 'true: read-only from now on, visibility project-members' },
    visibility: { type: 'string', enum: ['private', 'project-members'] },
    shareExpiresAt: { type: ['string', 'null'], maxLength: 64, description: 'ISO 8601, in the future: a public link (shareUrl) that works until then; null: no link' },
    followLatestRevision: { type: 'boolean', description: 'false keeps each item on the revision it shows now' },
  },
  additionalProperties: false,
} as const;

/** What a collection and its shared link (shared-collections.ts) both answer. */
export const collectionBasics = {
  id: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  finalized: { type: 'boolean' },
  followLatestRevision: { type: 'boolean' },
} as const;
const collection = {
  type: 'object',
  properties: {
    ...collectionBasics,
    visibility: { type: 'string', enum: ['private', 'project-members'] },
    createdAt: date,
    createdBy: userId,
    followers: { type: 'array', items: { type: 'string' } },
    shareUrl: { type: ['string', 'null'], description: 'the public link while it works (GET /v2/shared/collections/{token}), else null' },
    shareExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'when the link stops working (in the past once it has); null without a link' },
  },
  required: ['id', 'name', 'description', 'finalized', 'followLatestRevision', 'visibility', 'createdAt', 'createdBy', 'followers', 'shareUrl', 'shareExpiresAt'],
} as const;
const collectionOrId = { type: 'object', properties: collection.properties, required: ['id'] } as const;
const collectionItem = {
  type: 'object',
  properties: { id: { type: 'string' }, libraryId: { type: 'string' }, libraryItemId: { type: 'string' }, fileId: { type: 'string' }, createdAt: date, createdBy: userId },
  required: ['id', 'libraryId', 'libraryItemId', 'fileId', 'createdAt', 'createdBy'],
} as const;

type Project = { Params: { project: string } };
type One = { Params: { project: string; collection: string } };

/** Library item collections (seed 002; docs/V2.md, "Document libraries and collections"). */
export async function collectionRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  const base = '/projects/:project/libraries/collections';
  strictBodies(app);

  app.get<Project & { Querystring: CollectionQuery }>(base, { schema: { tags, params: projectParams, querystring: listQuery, response: { 200: { type: 'array', items: collectionOrId } } } }, (request) =>
    listCollections(db, request.auth.userId, request.params.project, request.query, requestOrigin(request)),
  );
  app.post<Project & { Body: NewCollection }>(base, { schema: { tags, params: projectParams, body: createBody, response: { 201: collection } } }, async (request, reply) =>
    reply.status(201).send(await createCollection(db, request.auth.userId, request.params.project, request.body, requestOrigin(request))),
  );
  app.get<One>(`${base}/:collection`, { schema: { tags, params: collectionParams, response: { 200: collection } } }, (request) =>
    getCollection(db, request.auth.userId, request.params.project, request.params.collection, requestOrigin(request)),
  );
  app.patch<One & { Body: CollectionChange }>(`${base}/:collection`, { schema: { tags, params: collectionParams, body: patchBody, response: { 200: collection } } }, (request) =>
    updateCollection(db, request.auth.userId, request.params.project, request.params.collection, request.body, requestOrigin(request)),
  );
  app.get<One>(`${base}/:collection/items`, { schema: { tags, params: collectionParams, response: { 200: { type: 'array', items: collectionItem } } } }, (request) =>
    listCollectionItems(db, request.auth.userId, request.params.project, request.params.collection),
  );
  // The caller follows or stops following (the `followers` list filter reads these).
  app.put<One>(`${base}/:collection/followers/me`, { schema: { tags, params: collectionParams, response: { 200: collection } } }, (request) =>
    setFollowing(db, request.auth.userId, request.params.project, request.params.collection, true, requestOrigin(request)),
  );
  app.delete<One>(`${base}/:collection/followers/me`, { schema: { tags, params: collectionParams, response: { 200: collection } } }, (request) =>
    setFollowing(db, request.auth.userId, request.params.project, request.params.collection, false, requestOrigin(request)),
  );
}
