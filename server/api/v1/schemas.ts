import { OBJECT_IDS_MAX, PER_PAGE_MAX } from '../../services/products.js';

/** JSON schemas shared by the v1 routes (seed 000's shapes); each route module has its own beside its handlers. */

export const idString = { type: 'string', minLength: 1, maxLength: 64 } as const;

/**
 * Numbers that reach SQL are bounded here, so one out of a column's range is a 400, not
 * PostgreSQL's `out of range` (a 500): object ids are int64 kept below 2^53
 * (storage/database.ts), revision numbers PostgreSQL integers, pages so that their offset is one.
 */
export const int64Id = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
export const revisionId = { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 } as const;

export const projectOrModel = {
  type: 'object',
  properties: { name: { type: 'string' }, id: { type: 'string' } },
  required: ['name', 'id'],
} as const;

export const nameBody = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: 255 } },
  required: ['name'],
} as const;

export const revision = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    comment: { type: 'string' },
    timestamp: { type: 'integer' },
    model_type: { type: 'string', enum: ['point-cloud'], description: 'An addition: a scan (E57, LAS, LAZ) processed into a point cloud; absent for IFC revisions' },
    point_count: { type: 'integer', description: "An addition: a point cloud revision's points" },
  },
  required: ['id', 'comment', 'timestamp'],
} as const;

export const paging = {
  page: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1, default: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: 100 },
} as const;

const ifcTypeName = { type: 'string', pattern: '^[Ii][Ff][Cc][A-Za-z0-9]+$', maxLength: 100 } as const;

/** Product filter body (seed 000): all optional. */
export const productFilter = {
  type: 'object',
  properties: {
    type: { type: 'array', items: ifcTypeName, maxItems: 1000 },
    objectId: { type: 'array', items: int64Id, maxItems: OBJECT_IDS_MAX },
    attributes: { type: 'boolean', default: false },
    definedBy: { type: 'boolean', default: false },
  },
  additionalProperties: false,
} as const;

export const productOptions = {
  type: 'object',
  properties: { attributes: { type: 'boolean', default: false }, definedBy: { type: 'boolean', default: false } },
  additionalProperties: false,
} as const;

const attributeValue = { type: 'object', additionalProperties: true } as const;

/** Product (basic, and extended when asked). */
export const product = {
  type: 'object',
  properties: {
    objectId: { type: 'integer' },
    parent: { type: 'integer' },
    globalId: { type: 'string' },
    type: { type: 'string' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    attributes: { type: 'object', additionalProperties: attributeValue },
    definedBy: { type: 'array', items: attributeValue },
  },
  required: ['objectId', 'parent', 'globalId', 'type', 'name', 'description'],
} as const;
