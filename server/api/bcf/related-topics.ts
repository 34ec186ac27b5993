import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { listRelatedTopics, putRelatedTopics } from '../../services/bcf/related-topics.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, topicParams } from './caller.js';

const tags = ['bcf topics'];
type TopicRequest = { Params: { project_id: string; topic_guid: string } };

const relatedBody = { type: 'array', maxItems: 1000, items: { type: 'object', properties: { related_topic_guid: { type: 'string', maxLength: 64 } }, required: ['related_topic_guid'] } } as const;

/** A topic's related topics: read, and replaced whole (every version: 1.0, 2.1 and 3.0 all have the related_topic schemas). */
export async function relatedTopicRoutes(app: FastifyInstance, ctx: Context, _version: BcfVersion) {
  const { db } = ctx;
  const path = '/projects/:project_id/topics/:topic_guid/related_topics';
  app.get<TopicRequest>(path, { schema: { tags, params: topicParams } }, async (request) => listRelatedTopics(db, await boardOf(ctx, request), request.params.topic_guid));
  app.put<TopicRequest & { Body: { related_topic_guid: string }[] }>(path, { schema: { tags, params: topicParams, body: relatedBody } }, async (request) =>
    putRelatedTopics(db, await boardOf(ctx, request), request.params.topic_guid, request.body),
  );
}
