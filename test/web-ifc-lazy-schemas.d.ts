// The web-ifc our workers get, with each schema built on first use (scripts/web-ifc-lazy-schemas.mjs):
// the same exports as web-ifc.
declare module 'virtual:web-ifc-lazy-schemas' {
  export * from 'web-ifc';
}
