import { ViewerError, type ObjectQuery } from '../types.js';

/**
 * The optional query of loadUrl (COMPAT.md): `{objectId: 123}` or
 * `{objectId: {$in: [123, 456]}}`. Returns the object ids to load, or undefined for all.
 */
export function parseObjectQuery(query: ObjectQuery | null | undefined): Set<string> | undefined {
  if (query === undefined || query === null) return undefined;
  if (typeof query !== 'object') throw new ViewerError('argument', 'loadUrl: the query must be an object like {objectId: {$in: [ids]}}');
  const value = query.objectId;
  if (value === undefined) return undefined;
  const list = typeof value === 'object' && value !== null && '$in' in value ? value.$in : [value];
  if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' && typeof id !== 'number')) {
    throw new ViewerError('argument', 'loadUrl: query.objectId must be an id or {$in: [ids]}');
  }
  return new Set(list.map((id) => String(id)));
}
