import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { topicFileKeys } from '../../services/bcf/board-files.js';
import { allowedValues } from '../../services/bcf/extensions.js';
import { listEvents } from '../../services/bcf/topic-events.js';
import { createTopic, deleteTopic, listTopics, peopleOf, topicJson, topicRow, updateTopic, type Caller, type ListOptions, type TopicRow } from '../../services/bcf/topics.js';
import type { Board } from '../../services/bcf/boards.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, boardParams, callerOf, topicParams } from './caller.js';

const tags = ['bcf topics'];
type BoardRequest = { Params: { project_id: string } };
type TopicRequest = { Params: { project_id: string; topic_guid: string } };
type Body = Record<string, unknown>;

const odata = {
  type: 'object',
  properties: {
    $filter: { type: 'string', maxLength: 4000 },
    $orderby: { type: 'string', maxLength: 200 },
    $top: { type: 'integer' },
    $skip: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 },
    $select: { type: 'string', maxLength: 1000 },
  },
} as const;
const authorizationQuery = { type: 'object', properties: { includeAuthorization: { type: 'boolean', default: false } } } as const;
// Bodies are checked field by field in services/bcf/topics.ts (the board's values decide); here only their shape.
const topicBody = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } as const;

/** The topic as answered, with its authorization when asked for (query, or 2.1's body field). */
async function answer(ctx: Context, board: Board, caller: Caller, row: TopicRow, authorization: boolean) {
  const statuses = authorization ? (await allowedValues(ctx.db, board.id, board.projectId)).status : [];
  return topicJson(row, caller, await peopleOf(ctx.db, board.projectId), authorization ? { board, statuses } : undefined);
}

/** Topics: list with OData, read, create, replace, delete; their events (3.0). */
export async function topicRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  const { db } = ctx;

  app.get<BoardRequest & { Querystring: ListOptions }>('/projects/:project_id/topics', { schema: { tags, params: boardParams, querystring: odata } }, async (request) => {
    const board = await boardOf(ctx, request);
    return listTopics(db, board, await callerOf(ctx, request, version), request.query);
  });

  app.get<TopicRequest & { Querystring: { includeAuthorization: boolean } }>(
    '/projects/:project_id/topics/:topic_guid',
    { schema: { tags, params: topicParams, querystring: authorizationQuery } },
    async (request) => {
      const board = await boardOf(ctx, request);
      return answer(ctx, board, await callerOf(ctx, request, version), await topicRow(db, board.id, request.params.topic_guid), request.query.includeAuthorization);
    },
  );

  app.post<BoardRequest & { Body: Body; Querystring: { includeAuthorization: boolean } }>(
    '/projects/:project_id/topics',
    { schema: { tags, params: boardParams, querystring: authorizationQuery, body: topicBody } },
    async (request, reply) => {
      const board = await boardOf(ctx, request);
      const caller = await callerOf(ctx, request, version);
      const row = await createTopic(db, board, caller, request.body);
      return reply.status(201).send(await answer(ctx, board, caller, row, request.query.includeAuthorization || request.body.includeAuthorization === true));
    },
  );

  app.put<TopicRequest & { Body: Body; Querystring: { includeAuthorization: boolean } }>(
    '/projects/:project_id/topics/:topic_guid',
    { schema: { tags, params: topicParams, querystring: authorizationQuery, body: topicBody } },
    async (request) => {
      const board = await boardOf(ctx, request);
      const caller = await callerOf(ctx, request, version);
      const row = await updateTopic(db, board, caller, request.params.topic_guid, request.body);
      return answer(ctx, board, caller, row, request.query.includeAuthorization || request.body.includeAuthorization === true);
    },
  );

  app.delete<TopicRequest>('/projects/:project_id/topics/:topic_guid', { schema: { tags, params: topicParams } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    const files = await topicFileKeys(db, board.id, request.params.topic_guid);
    await deleteTopic(db, board, await callerOf(ctx, request, version), request.params.topic_guid);
    await Promise.all(files.map((key) => ctx.blobs.delete(key).catch(() => {})));
    reply.status(204).send();
  });

  if (version === '3.0') {
    app.get<TopicRequest>('/projects/:project_id/topics/:topic_guid/events', { schema: { tags, params: topicParams } }, async (request) => {
      const board = await boardOf(ctx, request);
      const topic = await topicRow(db, board.id, request.params.topic_guid);
      return listEvents(db, board.id, topic.guid);
    });
  }
}
