import type { FastifyInstance } from 'fastify';
import { listRevisions, publicRevision, revisionFor } from '../../services/revisions.js';
import type { Context } from '../context.js';
import { kindOfKey, UPLOAD_MEDIA_TYPES } from '../../services/upload-kind.js';
import { idString, revision, revisionId } from './schemas.js';

export const revisionQuery = {
  type: 'object',
  properties: { model_id: idString, revision_id: revisionId },
  required: ['model_id'],
} as const;
type RevisionQuery = { Querystring: { model_id: string; revision_id?: number } };

/**
 * Seed 000: GET /revisions, /revision, /revision/export (the file exactly as uploaded: the
 * IFC, or a point cloud revision's scan with its own media type, upload-kind.ts).
 */
export async function revisionRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  const tags = ['v1 revisions'];

  app.get<{ Querystring: { model_id: string } }>(
    '/revisions',
    { schema: { tags, querystring: { type: 'object', properties: { model_id: idString }, required: ['model_id'] }, response: { 200: { type: 'array', items: revision } } } },
    (request) => listRevisions(db, request.auth.userId, request.query.model_id),
  );

  app.get<RevisionQuery>('/revision', { schema: { tags, querystring: revisionQuery, response: { 200: revision } } }, async (request) =>
    publicRevision(await revisionFor(db, request.auth.userId, request.query.model_id, request.query.revision_id)),
  );

  app.get<RevisionQuery>('/revision/export', { schema: { tags, querystring: revisionQuery } }, async (request, reply) => {
    const stored = await revisionFor(db, request.auth.userId, request.query.model_id, request.query.revision_id);
    const fileName = stored.fileName.replace(/[^\w.\- ]/g, '_');
    reply
      .header('Content-Type', UPLOAD_MEDIA_TYPES[kindOfKey(stored.blobKey)])
      .header('Content-Length', stored.size)
      .header('Content-Disposition', `attachment; filename="${fileName}"`);
    return reply.send(await ctx.blobs.get(stored.blobKey));
  });
}
