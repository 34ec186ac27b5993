import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { requestOrigin } from '../origin.js';
import { collectionBasics } from './collections.js';
import { contentDisposition, contentTypeOf } from '../../services/bcf/documents.js';
import { fileBytes } from '../../services/v2/library-files.js';
import { sharedCollection, sharedFile } from '../../services/v2/shared-collections.js';

const tags = ['v2 shared collections'];
const token = { type: 'string', maxLength: 255 } as const;
const date = { type: 'string', format: 'date-time' } as const;

const shared = {
  type: 'object',
  properties: {
    ...collectionBasics,
    expiresAt: date,
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          libraryId: { type: 'string' },
          libraryItemId: { type: 'string' },
          name: { type: 'string', description: 'the library item\'s name' },
          fileId: { type: 'string' },
          revision: { type: 'integer' },
          filename: { type: 'string' },
          size: { type: 'integer' },
          url: { type: 'string', description: 'downloads the file through the link' },
        },
        required: ['id', 'libraryId', 'libraryItemId', 'name', 'fileId', 'revision', 'filename', 'size', 'url'],
      },
    },
  },
  required: ['id', 'name', 'description', 'finalized', 'followLatestRevision', 'expiresAt', 'items'],
} as const;

type Shared = { Params: { token: string } };

/**
 * A collection's public link (no access token: the link is the credential): the collection
 * with its items, and their files. 410 once the link expired, 404 for any other token.
 */
export async function sharedCollectionRoutes(app: FastifyInstance, ctx: Context) {
  const { db, blobs } = ctx;
  app.get<Shared>('/shared/collections/:token', { schema: { tags, params: { type: 'object', properties: { token }, required: ['token'] }, response: { 200: shared } } }, (request) =>
    sharedCollection(db, request.params.token, requestOrigin(request)),
  );
  app.get<Shared & { Params: { file: string } }>(
    '/shared/collections/:token/files/:file',
    { schema: { tags, params: { type: 'object', properties: { token, file: { type: 'string', maxLength: 64 } }, required: ['token', 'file'] } } },
    async (request, reply) => {
      const row = await sharedFile(db, request.params.token, request.params.file);
      reply.header('Content-Type', contentTypeOf(row.filename)).header('Content-Disposition', contentDisposition(row.filename)).header('Content-Length', row.size).header('X-Content-Type-Options', 'nosniff');
      return reply.send(await fileBytes(blobs, row));
    },
  );
}
