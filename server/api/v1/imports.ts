import type { FastifyInstance } from 'fastify';
import { importStatus, registerImport } from '../../services/imports.js';
import type { Context } from '../context.js';
import { idString } from './schemas.js';

const importQuery = {
  type: 'object',
  properties: {
    model_id: idString,
    file_name: { type: 'string', minLength: 1, maxLength: 255 },
    comment: { type: 'string', maxLength: 10_000, default: '' },
    callback_uri: { type: 'string', maxLength: 2048 },
  },
  required: ['model_id', 'file_name'],
} as const;

const status = {
  type: 'object',
  properties: {
    comment: { type: 'string' },
    file_name: { type: 'string' },
    model_id: { type: 'string' },
    project_id: { type: 'string' },
    result: { type: 'string', enum: ['running', 'success', 'error'] },
    revision_id: { type: 'integer' },
    error: { type: 'string' },
  },
  required: ['comment', 'file_name', 'model_id', 'project_id', 'result'],
} as const;

/**
 * Seed 000: PUT /model/import (the body is the IFC file, or a scan: E57, LAS, LAZ; any
 * content type, streamed to storage; `{token}` at once) and GET /model/import/status.
 */
export async function importRoutes(app: FastifyInstance, ctx: Context) {
  const tags = ['v1 import'];
  // The body is the file: no parser reads it; the handler streams request.raw to storage.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.put<{ Querystring: { model_id: string; file_name: string; comment: string; callback_uri?: string } }>(
    '/model/import',
    {
      schema: {
        tags,
        description:
          'The body is the file as it is: an IFC, or (an addition) a scan, E57, LAS or LAZ, told by its first bytes ("ASTM-E57", "LASF") and processed into a point cloud revision (`model_type: point-cloud`). A failed scan says why in the status: `bad checksum: `, `truncated: `, `no points: `, `unsupported: ` or `malformed: `, then the reader\'s message.',
        querystring: importQuery,
        response: { 200: { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] } },
      },
    },
    async (request, reply) => {
      const { model_id, file_name, comment, callback_uri } = request.query;
      try {
        const token = await registerImport(ctx.db, ctx.blobs, request.auth, model_id, { fileName: file_name, comment, callbackUri: callback_uri }, request.raw, ctx.maxUploadBytes);
        ctx.pokeJobs();
        return { token };
      } catch (error) {
        // A file refused half-read (413): the rest of it, unread, would stall the next request on
        // this connection, so the connection closes after the answer (as Fastify's own body limit does).
        if (request.raw.readableDidRead && !request.raw.complete) reply.header('Connection', 'close');
        throw error;
      }
    },
  );

  app.get<{ Querystring: { token: string } }>(
    '/model/import/status',
    { schema: { tags, querystring: { type: 'object', properties: { token: idString }, required: ['token'] }, response: { 200: status } } },
    (request) => importStatus(ctx.db, request.auth.userId, request.query.token),
  );
}
