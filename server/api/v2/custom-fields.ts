import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { strictBodies } from './strict-body.js';
import { createField, FIELD_TYPES, getField, listFields, listItems, updateField, type ArchivedFilter, type FieldPatch } from '../../services/v2/custom-fields.js';

const tags = ['v2 custom fields'];
const id = { type: 'string', maxLength: 64 } as const;
const projectParams = { type: 'object', properties: { project: id }, required: ['project'] } as const;
const fieldParams = { type: 'object', properties: { project: id, id }, required: ['project', 'id'] } as const;
const name = { type: 'string', minLength: 1, maxLength: 255 } as const;
const description = { type: 'string', maxLength: 10_000 } as const;
const code = { type: ['string', 'null'], maxLength: 255 } as const;
const identifier = { type: 'object', properties: { id }, required: ['id'], additionalProperties: false } as const;
const list = (items: object) => ({ type: 'array', items, maxItems: 1000 }) as const;

const fieldBody = {
  type: 'object',
  properties: { name, description, type: { type: 'string', enum: FIELD_TYPES } },
  required: ['name', 'type'],
  additionalProperties: false,
} as const;
const patchBody = {
  type: 'object',
  properties: {
    name,
    description,
    archived: { type: 'boolean' },
    enumerationItemsToAdd: list({ type: 'object', properties: { name, code }, required: ['name'], additionalProperties: false }),
    enumerationItemsToMove: list({ type: 'object', properties: { id, itemBeforeId: { type: ['string', 'null'], maxLength: 64 } }, required: ['id', 'itemBeforeId'], additionalProperties: false }),
    enumerationItemsToDisable: list(identifier),
    enumerationItemsToRestore: list(identifier),
    enumerationItemsToRename: list({ type: 'object', properties: { id, name }, required: ['id', 'name'], additionalProperties: false }),
    enumerationItemsToUpdateCode: list({ type: 'object', properties: { id, code }, required: ['id', 'code'], additionalProperties: false }),
  },
  additionalProperties: false,
} as const;

type FieldRequest = { Params: { project: string; id: string } };

/**
 * Custom fields of a project (seed 002; docs/V2.md): list (`archived` = all, archived,
 * not-archived), create, read, its enumeration items, PATCH. Members read; the
 * project's administrators create and change.
 */
export async function customFieldRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;
  strictBodies(app);
  app.get<{ Params: { project: string }; Querystring: { archived?: ArchivedFilter } }>(
    '/projects/:project/custom-fields',
    { schema: { tags, params: projectParams, querystring: { type: 'object', properties: { archived: { type: 'string', enum: ['all', 'archived', 'not-archived'], default: 'all' } }, additionalProperties: false } } },
    async (request) => listFields(db, request.auth.userId, request.params.project, request.query.archived),
  );

  app.post<{ Params: { project: string }; Body: { name: string; description?: string; type: string } }>(
    '/projects/:project/custom-fields',
    { schema: { tags, params: projectParams, body: fieldBody } },
    async (request, reply) => reply.status(201).send(await createField(db, request.auth.userId, request.params.project, request.body)),
  );

  app.get<FieldRequest>('/projects/:project/custom-fields/:id', { schema: { tags, params: fieldParams } }, async (request) =>
    getField(db, request.auth.userId, request.params.project, request.params.id),
  );

  app.get<FieldRequest>('/projects/:project/custom-fields/:id/enumeration-items', { schema: { tags, params: fieldParams } }, async (request) =>
    listItems(db, request.auth.userId, request.params.project, request.params.id),
  );

  app.patch<FieldRequest & { Body: FieldPatch }>('/projects/:project/custom-fields/:id', { schema: { tags, params: fieldParams, body: patchBody } }, async (request) =>
    updateField(db, request.auth.userId, request.params.project, request.params.id, request.body),
  );
}
