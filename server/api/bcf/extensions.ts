import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import {
  allowedValues, createStatus, createType, deleteStatus, deleteType, linkUser, linkValue, listStatuses, listTypes, listUsers, updateStatus, updateType,
} from '../../services/bcf/extensions.js';
import { TOPIC_ACTIONS } from '../../services/bcf/topics.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { projectActions } from './boards.js';
import { boardOf, boardParams } from './caller.js';

const tags = ['bcf extensions'];
type Params = { Params: { project_id: string } };
const includeUnlinked = { type: 'object', properties: { 'include-unlinked': { type: 'boolean', default: false } } } as const;
const text = { type: 'string', maxLength: 255 } as const;
/** DELETE takes the `name` in its body, or in the query for clients that send no body with a DELETE. */
const nameToDelete = { body: { type: ['object', 'null'], properties: { name: text } }, querystring: { type: 'object', properties: { name: text } } } as const;
type NameToDelete = { Body?: { name?: string }; Querystring: { name?: string } };
const body = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required }) as const;

/**
 * A board's extensions (GET .../extensions) and the status, type and user resources
 * (additions of seed 001): create, update, delete and link, with its rules 1-3
 * (services/bcf/extensions.ts). Served in every version (the seed describes them for
 * 2.0 and 3.0 and shows nothing else for 2.1).
 */
export async function extensionRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  const { db } = ctx;
  const base = '/projects/:project_id/extensions';

  app.get<Params>(base, { schema: { tags, params: boardParams } }, async (request) => {
    const board = await boardOf(ctx, request);
    const values = await allowedValues(db, board.id, board.projectId);
    return {
      topic_type: values.type,
      topic_status: values.status,
      // 3.0's schema names the users `users`; the seed (and 2.x) `user_id_type`: both are sent.
      user_id_type: values.users,
      ...(version === '3.0' ? { users: values.users } : {}),
      topic_label: values.label,
      snippet_type: values.snippet_type,
      priority: values.priority,
      stage: values.stage,
      ...(version === '2.0' ? {} : { project_actions: projectActions(version), topic_actions: TOPIC_ACTIONS, comment_actions: ['update', 'delete'] }),
    };
  });

  app.get<Params & { Querystring: { 'include-unlinked': boolean } }>(`${base}/statuses`, { schema: { tags, params: boardParams, querystring: includeUnlinked } }, async (request) =>
    listStatuses(db, (await boardOf(ctx, request)).id, request.query['include-unlinked']),
  );
  app.post<Params & { Body: { name: string; color?: string; type?: string } }>(
    `${base}/statuses`,
    { schema: { tags, params: boardParams, body: body({ name: text, color: text, type: text }, ['name']) } },
    async (request, reply) => reply.status(201).send(await createStatus(db, (await boardOf(ctx, request)).id, request.body)),
  );
  app.put<Params & { Body: { existingName: string; name?: string; color?: string; type?: string } }>(
    `${base}/statuses`,
    { schema: { tags, params: boardParams, body: body({ existingName: text, name: text, color: text, type: text }, ['existingName']) } },
    async (request) => updateStatus(db, (await boardOf(ctx, request)).id, request.body),
  );
  app.delete<Params & NameToDelete>(`${base}/statuses`, { schema: { tags, params: boardParams, ...nameToDelete } }, async (request, reply) => {
    await deleteStatus(db, (await boardOf(ctx, request)).id, request.body?.name ?? request.query.name);
    reply.status(204).send();
  });
  app.put<Params & { Body: { name: string; unlinkedName: string } }>(
    `${base}/statuses/link`,
    { schema: { tags, params: boardParams, body: body({ name: text, unlinkedName: text }, ['name', 'unlinkedName']) } },
    async (request) => linkValue(db, (await boardOf(ctx, request)).id, 'status', request.body),
  );

  app.get<Params & { Querystring: { 'include-unlinked': boolean } }>(`${base}/types`, { schema: { tags, params: boardParams, querystring: includeUnlinked } }, async (request) =>
    listTypes(db, (await boardOf(ctx, request)).id, request.query['include-unlinked']),
  );
  app.post<Params & { Body: { name: string; color?: string } }>(
    `${base}/types`,
    { schema: { tags, params: boardParams, body: body({ name: text, color: text }, ['name']) } },
    async (request, reply) => reply.status(201).send(await createType(db, (await boardOf(ctx, request)).id, request.body)),
  );
  app.put<Params & { Body: { existingName: string; name?: string; color?: string } }>(
    `${base}/types`,
    { schema: { tags, params: boardParams, body: body({ existingName: text, name: text, color: text }, ['existingName']) } },
    async (request) => updateType(db, (await boardOf(ctx, request)).id, request.body),
  );
  app.delete<Params & NameToDelete>(`${base}/types`, { schema: { tags, params: boardParams, ...nameToDelete } }, async (request, reply) => {
    await deleteType(db, (await boardOf(ctx, request)).id, request.body?.name ?? request.query.name);
    reply.status(204).send();
  });
  app.put<Params & { Body: { name: string; unlinkedName: string } }>(
    `${base}/types/link`,
    { schema: { tags, params: boardParams, body: body({ name: text, unlinkedName: text }, ['name', 'unlinkedName']) } },
    async (request) => linkValue(db, (await boardOf(ctx, request)).id, 'type', request.body),
  );

  app.get<Params & { Querystring: { 'include-unlinked': boolean } }>(`${base}/users`, { schema: { tags, params: boardParams, querystring: includeUnlinked } }, async (request) => {
    const board = await boardOf(ctx, request);
    return listUsers(db, board.id, board.projectId, request.query['include-unlinked']);
  });
  app.put<Params & { Body: { existingUserId: string; unlinkedUser: string } }>(
    `${base}/users/link`,
    { schema: { tags, params: boardParams, body: body({ existingUserId: text, unlinkedUser: text }, ['existingUserId', 'unlinkedUser']) } },
    async (request) => {
      const board = await boardOf(ctx, request);
      return linkUser(db, board.id, board.projectId, request.body);
    },
  );
}
