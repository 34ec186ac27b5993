import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { strictBodies } from './strict-body.js';
import { contentDisposition, contentTypeOf, filenameOfDisposition } from '../../services/bcf/documents.js';
import { createItem, createLibrary, itemFor, libraryFor, listItems, listLibraries, type NewNamed } from '../../services/v2/libraries.js';
import { fileBytes, fileFor, listFiles, uploadFile } from '../../services/v2/library-files.js';

const tags = ['v2 document libraries'];
const id = { type: 'string', maxLength: 64 } as const;
const date = { type: 'string', format: 'date-time' } as const;
const userId = { type: ['string', 'null'] } as const;

const libraryParams = { type: 'object', properties: { project: id, library: id }, required: ['project', 'library'] } as const;
const itemParams = { type: 'object', properties: { project: id, library: id, item: id }, required: ['project', 'library', 'item'] } as const;
const fileParams = { type: 'object', properties: { project: id, library: id, item: id, file: id }, required: ['project', 'library', 'item', 'file'] } as const;
export const projectParams = { type: 'object', properties: { project: id }, required: ['project'] } as const;

const namedBody = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: 255 }, description: { type: 'string', maxLength: 10_000 } },
  required: ['name'],
  additionalProperties: false,
} as const;

const library = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, createdAt: date, createdBy: userId },
  required: ['id', 'name', 'description', 'createdAt', 'createdBy'],
} as const;
const item = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    libraryId: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    latestRevision: { type: 'integer', description: 'revision number of the newest file; 0 before the first upload' },
    latestFileId: { type: ['string', 'null'], description: 'the newest file; null before the first upload' },
    createdAt: date,
    createdBy: userId,
  },
  required: ['id', 'libraryId', 'name', 'description', 'latestRevision', 'latestFileId', 'createdAt', 'createdBy'],
} as const;
const file = {
  type: 'object',
  properties: { id: { type: 'string' }, revision: { type: 'integer' }, filename: { type: 'string' }, size: { type: 'integer' }, createdAt: date, createdBy: userId },
  required: ['id', 'revision', 'filename', 'size', 'createdAt', 'createdBy'],
} as const;

type P<T> = { Params: T };
type LibraryParams = { project: string; library: string };
type ItemParams = LibraryParams & { item: string };

/**
 * A project's document libraries (docs/V2.md, "Document libraries and collections"):
 * libraries, their items, and each item's files (revisions): uploaded as the request's
 * body, listed newest first, downloaded as sent.
 */
export async function libraryRoutes(app: FastifyInstance, ctx: Context) {
  const { db, blobs } = ctx;
  const base = '/projects/:project/libraries';
  strictBodies(app);

  app.get<P<{ project: string }>>(base, { schema: { tags, params: projectParams, response: { 200: { type: 'array', items: library } } } }, (request) =>
    listLibraries(db, request.auth.userId, request.params.project),
  );
  app.post<P<{ project: string }> & { Body: NewNamed }>(base, { schema: { tags, params: projectParams, body: namedBody, response: { 201: library } } }, async (request, reply) =>
    reply.status(201).send(await createLibrary(db, request.auth.userId, request.params.project, request.body)),
  );
  app.get<P<LibraryParams>>(`${base}/:library`, { schema: { tags, params: libraryParams, response: { 200: library } } }, async (request) => {
    const { project: _project, ...found } = await libraryFor(db, request.auth.userId, request.params.project, request.params.library);
    return found;
  });

  app.get<P<LibraryParams>>(`${base}/:library/items`, { schema: { tags, params: libraryParams, response: { 200: { type: 'array', items: item } } } }, (request) =>
    listItems(db, request.auth.userId, request.params.project, request.params.library),
  );
  app.post<P<LibraryParams> & { Body: NewNamed }>(`${base}/:library/items`, { schema: { tags, params: libraryParams, body: namedBody, response: { 201: item } } }, async (request, reply) =>
    reply.status(201).send(await createItem(db, request.auth.userId, request.params.project, request.params.library, request.body)),
  );
  app.get<P<ItemParams>>(`${base}/:library/items/:item`, { schema: { tags, params: itemParams, response: { 200: item } } }, (request) =>
    itemFor(db, request.auth.userId, request.params.project, request.params.library, request.params.item),
  );

  const at = (params: ItemParams) => ({ projectId: params.project, libraryId: params.library, itemId: params.item });
  app.get<P<ItemParams>>(`${base}/:library/items/:item/files`, { schema: { tags, params: itemParams, response: { 200: { type: 'array', items: file } } } }, (request) =>
    listFiles(db, request.auth.userId, request.params.project, request.params.library, request.params.item),
  );
  app.get<P<ItemParams & { file: string }>>(`${base}/:library/items/:item/files/:file`, { schema: { tags, params: fileParams } }, async (request, reply) => {
    const row = await fileFor(db, request.auth.userId, at(request.params), request.params.file);
    reply.header('Content-Type', contentTypeOf(row.filename)).header('Content-Disposition', contentDisposition(row.filename)).header('Content-Length', row.size).header('X-Content-Type-Options', 'nosniff');
    return reply.send(await fileBytes(blobs, row));
  });

  // The upload's body is the file: no parser reads it in this scope; the handler streams request.raw to storage.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.post<P<ItemParams> & { Querystring: { filename?: string } }>(
      `${base}/:library/items/:item/files`,
      {
        schema: {
          tags,
          description: `A new revision of the item: the file as the body (any content type), its name from \`?filename=\` or Content-Disposition; at most MAX_UPLOAD_BYTES (413 beyond).`,
          params: itemParams,
          querystring: { type: 'object', properties: { filename: { type: 'string', maxLength: 255 } }, additionalProperties: false },
          response: { 201: file },
        },
      },
      async (request, reply) => {
        const filename = request.query.filename ?? filenameOfDisposition(request.headers['content-disposition']);
        try {
          return reply.status(201).send(await uploadFile(db, blobs, request.auth.userId, at(request.params), filename, request.raw, ctx.maxUploadBytes));
        } catch (error) {
          // A file refused half-read (413): its unread rest would stall the next request on this connection.
          if (request.raw.readableDidRead && !request.raw.complete) reply.header('Connection', 'close');
          throw error;
        }
      },
    );
  });
}
