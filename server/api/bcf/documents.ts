import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { contentDisposition, contentTypeOf, createDocument, documentRow, filenameOfDisposition, listDocuments } from '../../services/bcf/documents.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, boardParams } from './caller.js';

const tags = ['bcf documents'];
type BoardRequest = { Params: { project_id: string } };
const documentParams = { ...boardParams, properties: { ...boardParams.properties, document_guid: { type: 'string', maxLength: 64 } }, required: [...boardParams.required, 'document_guid'] } as const;

/** Documents of a board (3.0): list, download, upload (the body is the file, any content type). */
export async function documentRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  if (version !== '3.0') return;
  const { db, blobs } = ctx;
  // The body is the file: no parser reads it; the handler streams request.raw to storage (as v1's imports do).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.get<BoardRequest>('/projects/:project_id/documents', { schema: { tags, params: boardParams } }, async (request) => listDocuments(db, await boardOf(ctx, request)));

  app.get<BoardRequest & { Params: { document_guid: string } }>('/projects/:project_id/documents/:document_guid', { schema: { tags, params: documentParams } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    const row = await documentRow(db, board.id, request.params.document_guid);
    reply.header('Content-Type', contentTypeOf(row.filename)).header('Content-Disposition', contentDisposition(row.filename)).header('Content-Length', row.size).header('X-Content-Type-Options', 'nosniff');
    return reply.send(await blobs.get(row.blob_key));
  });

  app.post<BoardRequest & { Querystring: { filename?: string } }>(
    '/projects/:project_id/documents',
    { schema: { tags, params: boardParams, querystring: { type: 'object', properties: { filename: { type: 'string', maxLength: 255 } } } } },
    async (request, reply) => {
      const board = await boardOf(ctx, request);
      const filename = request.query.filename ?? filenameOfDisposition(request.headers['content-disposition']);
      try {
        return reply.status(201).send(await createDocument(db, blobs, board, filename, request.raw, ctx.maxUploadBytes));
      } catch (error) {
        // A file refused half-read (413): its unread rest would stall the next request on this connection.
        if (request.raw.readableDidRead && !request.raw.complete) reply.header('Connection', 'close');
        throw error;
      }
    },
  );
}
