import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../services/errors.js';

/**
 * JSON bodies of the plugin's routes keep their JSON types: Fastify's validator coerces
 * (`42` would become the name "42", `"true"` the boolean true), which suits query strings,
 * not bodies. Before validation each value is checked against its schema's `type`
 * (through `properties` and `items`); a mismatch is a 400 named as the validator does.
 */
type Schema = { type?: string | readonly string[]; properties?: Record<string, Schema>; items?: Schema };

function typeOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

function check(schema: Schema | undefined, value: unknown, at: string): void {
  if (!schema || value === undefined) return;
  if (schema.type !== undefined) {
    const allowed = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!typeOf(value).some((t) => allowed.includes(t))) throw badRequest(`${at} must be ${allowed.join(',')}`);
  }
  if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(schema.properties)) check(inner, (value as Record<string, unknown>)[key], `${at}/${key}`);
  }
  if (schema.items && Array.isArray(value)) value.forEach((inner, i) => check(schema.items, inner, `${at}/${i}`));
}

export function strictBodies(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema?.body as Schema | undefined;
    if (schema && request.body !== undefined) check(schema, request.body, 'body');
  });
}
