/**
 * Every endpoint of a running server, from its own GET /openapi.json: method, path, its
 * parameters with their schemas, and the JSON body's schema. A new route is fuzzed as soon
 * as it exists, without editing the test.
 */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  format?: string;
  default?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Endpoint {
  method: string;
  /** With `{name}` placeholders, as in OpenAPI. */
  path: string;
  params: Parameter[];
  body?: Schema;
  /** Every property name of any schema in the document (and a few no schema declares), with its schema: fields to add to a body. */
  pool: [string, Schema][];
}

/** Fields the BCF services read from a body though its schema leaves them open. */
export const UNDECLARED: [string, Schema][] = [
  ['due_date', { type: 'string' }],
  ['creation_date', { type: 'string' }],
  ['modified_date', { type: 'string' }],
  ['date', { type: 'string' }],
  ['index', { type: 'integer' }],
  ['labels', { type: 'array', items: { type: 'string' } }],
  ['reference_links', { type: 'array', items: { type: 'string' } }],
  ['assigned_to', { type: 'string' }],
  ['stage', { type: 'string' }],
  ['priority', { type: 'string' }],
];

/** The property names of every schema in `doc`, each with the first schema seen for it. */
function propertyPool(doc: unknown): [string, Schema][] {
  const pool = new Map<string, Schema>(UNDECLARED);
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const properties = (node as Schema).properties;
    if (properties && typeof properties === 'object') for (const [name, schema] of Object.entries(properties)) if (!pool.has(name) && schema && typeof schema === 'object') pool.set(name, schema);
    for (const value of Object.values(node)) walk(value);
  };
  walk(doc);
  return [...pool];
}

export const describeEndpoint = (e: Endpoint) => `${e.method} ${e.path}`;

export async function endpointsOf(base: string): Promise<Endpoint[]> {
  const answer = await fetch(`${base}/openapi.json`);
  if (answer.status !== 200) throw new Error(`GET /openapi.json: ${answer.status}`);
  const doc = (await answer.json()) as { paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>> };
  const endpoints: Endpoint[] = [];
  const pool = propertyPool(doc);
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const params = (operation.parameters ?? []).map((p) => ({ ...p, required: Boolean(p.required), schema: p.schema ?? {} }));
      // Path parameters OpenAPI names in the path but the route's schema left out are still parameters.
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        if (!params.some((p) => p.in === 'path' && p.name === name)) params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
      }
      endpoints.push({ method: method.toUpperCase(), path, params, body: operation.requestBody?.content?.['application/json']?.schema, pool });
    }
  }
  return endpoints;
}

/** A value the schema takes (its first enum value, a string of its least length...), or undefined when it takes anything. */
export function sampleOf(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      return 'fuzz'.padEnd(schema.minLength ?? 4, 'z').slice(0, schema.maxLength ?? 64);
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) value[name] = sampleOf(schema.properties?.[name], depth + 1) ?? 'fuzz';
      return value;
    }
    default:
      return undefined;
  }
}
