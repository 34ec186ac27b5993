// The web-ifc our workers get, with each schema's tables apart (scripts/web-ifc-lazy-schemas.mjs):
// the same exports as web-ifc, and the loader of a schema's tables.
declare module 'virtual:web-ifc-lazy-schemas' {
  export * from 'web-ifc';
  export function loadSchemaTables(schema: number, url?: string): Promise<void>;
}
