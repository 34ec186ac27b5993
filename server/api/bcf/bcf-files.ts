import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { exportBcf } from '../../services/bcf/bcf-xml/export-archive.js';
import { importBcf } from '../../services/bcf/bcf-xml/import-archive.js';
import { contentDisposition } from '../../services/bcf/documents.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { ApiError } from '../../services/errors.js';
import { boardOf, boardParams, callerOf } from './caller.js';

const tags = ['bcf files'];
/** A BCF file is read whole (zip archives are read from their end): this is the largest taken. */
export const BCF_FILE_MAX_BYTES = 100 * 1024 * 1024;
const ZIP_TYPES = ['application/octet-stream', 'application/zip', 'application/x-zip-compressed', 'application/vnd.buildingsmart.bcf'];

/**
 * BCF-XML exchange (additions of the platform, in every version): POST
 * .../projects/{id}/import with a .bcf/.bcfzip file as the body; GET
 * .../projects/{id}/export?version=2.1|3.0[&topics=guid,...] answers one.
 */
export async function bcfFileRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  for (const type of ZIP_TYPES) app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: BCF_FILE_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.post<{ Params: { project_id: string }; Body: Buffer }>('/projects/:project_id/import', { schema: { tags, params: boardParams }, bodyLimit: BCF_FILE_MAX_BYTES }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    const caller = await callerOf(ctx, request, version);
    if (!Buffer.isBuffer(request.body)) throw new ApiError(415, 415, 'UNSUPPORTED_MEDIA_TYPE', `Send the BCF file as the body, with Content-Type ${ZIP_TYPES.slice(0, 2).join(' or ')}`);
    return reply.status(201).send(await importBcf(ctx.db, ctx.blobs, board, caller, new Uint8Array(request.body)));
  });

  app.get<{ Params: { project_id: string }; Querystring: { version?: '2.1' | '3.0'; topics?: string } }>(
    '/projects/:project_id/export',
    {
      schema: {
        tags,
        params: boardParams,
        querystring: { type: 'object', properties: { version: { type: 'string', enum: ['2.1', '3.0'] }, topics: { type: 'string', maxLength: 37 * 1000 } } },
      },
    },
    async (request, reply) => {
      const board = await boardOf(ctx, request);
      // The file's version: asked for, else the API's (2.0's path writes 2.1, the oldest one written).
      const fileVersion = request.query.version ?? (version === '3.0' ? '3.0' : '2.1');
      const topics = request.query.topics?.split(',').filter(Boolean);
      const bytes = await exportBcf(ctx.db, ctx.blobs, board, fileVersion, topics);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Disposition', contentDisposition(`${board.name}.bcf`))
        .send(Buffer.from(bytes));
    },
  );
}
