import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { createComment, deleteComment, listComments, readComment, updateComment } from '../../services/bcf/comments.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, callerOf, topicParams } from './caller.js';

const tags = ['bcf comments'];
type TopicRequest = { Params: { project_id: string; topic_guid: string } };
type CommentRequest = { Params: { project_id: string; topic_guid: string; comment_guid: string } };
type Body = Record<string, unknown>;

const commentParams = { ...topicParams, properties: { ...topicParams.properties, comment_guid: { type: 'string', maxLength: 64 } }, required: [...topicParams.required, 'comment_guid'] } as const;
const authorizationQuery = { type: 'object', properties: { includeAuthorization: { type: 'boolean', default: false } } } as const;
const guid = { type: ['string', 'null'], maxLength: 64 } as const;
// 2.0 clients send API 1.0's `status` and `verbal_status` too: accepted, not kept (a comment shows its topic's status).
const commentBody = {
  type: 'object',
  properties: { guid, comment: { type: 'string' }, viewpoint_guid: guid, reply_to_comment_guid: guid },
  required: ['comment'],
} as const;

/** Comments of a topic, in every version (seed 001 describes 3.0; 2.0 and 2.1 in their schemas' shapes). */
export async function commentRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  const { db } = ctx;
  const path = '/projects/:project_id/topics/:topic_guid/comments';

  app.get<TopicRequest & { Querystring: { includeAuthorization: boolean } }>(path, { schema: { tags, params: topicParams, querystring: authorizationQuery } }, async (request) => {
    const board = await boardOf(ctx, request);
    return listComments(db, board, await callerOf(ctx, request, version), request.params.topic_guid, request.query.includeAuthorization);
  });

  app.get<CommentRequest & { Querystring: { includeAuthorization: boolean } }>(
    `${path}/:comment_guid`,
    { schema: { tags, params: commentParams, querystring: authorizationQuery } },
    async (request) => {
      const board = await boardOf(ctx, request);
      const { topic_guid, comment_guid } = request.params;
      return readComment(db, board, await callerOf(ctx, request, version), topic_guid, comment_guid, request.query.includeAuthorization);
    },
  );

  app.post<TopicRequest & { Body: Body }>(path, { schema: { tags, params: topicParams, body: commentBody } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    return reply.status(201).send(await createComment(db, board, await callerOf(ctx, request, version), request.params.topic_guid, request.body));
  });

  app.put<CommentRequest & { Body: Body }>(`${path}/:comment_guid`, { schema: { tags, params: commentParams, body: commentBody } }, async (request) => {
    const board = await boardOf(ctx, request);
    const { topic_guid, comment_guid } = request.params;
    return updateComment(db, board, await callerOf(ctx, request, version), topic_guid, comment_guid, request.body);
  });

  app.delete<CommentRequest>(`${path}/:comment_guid`, { schema: { tags, params: commentParams } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    const { topic_guid, comment_guid } = request.params;
    await deleteComment(db, board, await callerOf(ctx, request, version), topic_guid, comment_guid);
    reply.status(204).send();
  });
}
