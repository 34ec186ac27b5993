import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { createDocumentReference, deleteDocumentReference, listDocumentReferences, updateDocumentReference } from '../../services/bcf/document-references.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, topicParams } from './caller.js';

const tags = ['bcf documents'];
type TopicRequest = { Params: { project_id: string; topic_guid: string } };
type ReferenceRequest = { Params: { project_id: string; topic_guid: string; document_reference_guid: string } };
type Body = Record<string, unknown>;

const referenceParams = { ...topicParams, properties: { ...topicParams.properties, document_reference_guid: { type: 'string', maxLength: 64 } }, required: [...topicParams.required, 'document_reference_guid'] } as const;
const optional = { type: ['string', 'null'] } as const;
// Which of document_guid and url is given, and whether the document exists, is checked in the service.
const referenceBody = { type: 'object', properties: { guid: optional, document_guid: optional, url: optional, description: optional } } as const;

/** Document references of a topic (3.0): list, create, replace, delete. */
export async function documentReferenceRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  if (version !== '3.0') return;
  const { db } = ctx;
  const path = '/projects/:project_id/topics/:topic_guid/document_references';

  app.get<TopicRequest>(path, { schema: { tags, params: topicParams } }, async (request) => listDocumentReferences(db, await boardOf(ctx, request), request.params.topic_guid));

  app.post<TopicRequest & { Body: Body }>(path, { schema: { tags, params: topicParams, body: referenceBody } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    return reply.status(201).send(await createDocumentReference(db, board, request.params.topic_guid, request.body));
  });

  app.put<ReferenceRequest & { Body: Body }>(`${path}/:document_reference_guid`, { schema: { tags, params: referenceParams, body: referenceBody } }, async (request) => {
    const board = await boardOf(ctx, request);
    return updateDocumentReference(db, board, request.params.topic_guid, request.params.document_reference_guid, request.body);
  });

  app.delete<ReferenceRequest>(`${path}/:document_reference_guid`, { schema: { tags, params: referenceParams } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    await deleteDocumentReference(db, board, request.params.topic_guid, request.params.document_reference_guid);
    reply.status(204).send();
  });
}
