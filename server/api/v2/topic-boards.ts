import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { strictBodies } from './strict-body.js';
import { badRequest } from '../../services/errors.js';
import { getTopicBoard, updateTopicBoard, type BoardPatch } from '../../services/v2/board-fields.js';

const tags = ['v2 topic boards'];
const id = { type: 'string', maxLength: 64 } as const;
const params = { type: 'object', properties: { project: id, id }, required: ['project', 'id'] } as const;
const query = { type: 'object', properties: { include: { type: 'string', maxLength: 200, description: 'comma-separated; `customFields`' } }, additionalProperties: false } as const;
// Any JSON here: the field's type decides, checked in services/v2/custom-fields.ts (no coercion of a wrong type).
const value = { description: 'null, or a value of the custom field\'s type: string (text), integer, number (double), enumeration item id, ISO 8601 date' } as const;
const instance = { type: 'object', properties: { id, required: { type: 'boolean' }, defaultValue: value }, required: ['id'], additionalProperties: false } as const;
const identifier = { type: 'object', properties: { id }, required: ['id'], additionalProperties: false } as const;
const list = (items: object) => ({ type: 'array', items, maxItems: 1000 }) as const;
const body = {
  type: 'object',
  properties: {
    customFieldsToAdd: list(instance),
    customFieldsToModify: list(instance),
    customFieldsToDisable: list(identifier),
    customFieldstoRestore: list(identifier),
    customFieldsToRestore: list(identifier),
    customFieldsToDelete: list(identifier),
    customFieldsToMove: list({ type: 'object', properties: { id, itemBeforeId: { type: ['string', 'null'], maxLength: 64 } }, required: ['id', 'itemBeforeId'], additionalProperties: false }),
  },
  additionalProperties: false,
} as const;

type BoardRequest = { Params: { project: string; id: string }; Querystring: { include?: string } };

/** `include=customFields` (a comma-separated list; nothing else is known). */
function includesFields(include: string | undefined): boolean {
  const names = (include ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => n !== 'customFields');
  if (unknown.length) throw badRequest(`\`include\`: unknown value(s) ${unknown.join(', ')} (known: customFields)`);
  return names.length > 0;
}

/**
 * Topic boards (seed 002; docs/V2.md): the BCF API's issue boards with their custom-field
 * instances. GET for members; PATCH, which answers the board, for the project's administrators.
 */
export async function topicBoardRoutes(app: FastifyInstance, ctx: Context) {
  strictBodies(app);
  app.get<BoardRequest>('/projects/:project/issues/boards/:id', { schema: { tags, params, querystring: query } }, async (request) =>
    getTopicBoard(ctx.db, request.auth.userId, request.params.project, request.params.id, includesFields(request.query.include)),
  );
  app.patch<BoardRequest & { Body: BoardPatch }>('/projects/:project/issues/boards/:id', { schema: { tags, params, querystring: query, body } }, async (request) => {
    const include = includesFields(request.query.include);
    return updateTopicBoard(ctx.db, request.auth.userId, request.params.project, request.params.id, request.body, include);
  });
}
