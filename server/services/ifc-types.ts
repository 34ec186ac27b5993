import { badRequest } from './errors.js';

/**
 * Seed 000's product filter takes "IFC entity types that have IfcProduct as supertype, or
 * IfcProject". The names (upper case) come from web-ifc's schemas, all of them, so every
 * type processing can store is here (jobs/read-ifc.ts takes products by the same
 * inheritance). web-ifc's JavaScript is loaded at the first filter by type, not at start.
 */
let productTypes: Promise<Set<string>> | undefined;

async function loadProductTypes(): Promise<Set<string>> {
  const ifc = await import('web-ifc');
  const names = new Map<number, string>();
  for (const [name, code] of Object.entries(ifc)) if (/^IFC[A-Z0-9]+$/.test(name) && typeof code === 'number') names.set(code, name);
  const types = new Set(['IFCPROJECT', 'IFCPRODUCT']);
  for (const schema of Object.values(ifc.InheritanceDef as Record<number, Record<number, number[]>>)) {
    for (const code of schema[ifc.IFCPRODUCT] ?? []) if (names.has(code)) types.add(names.get(code)!);
  }
  return types;
}

/** 400 naming the types of `types` that are no IfcProduct type nor IfcProject (any case). */
export async function checkProductTypes(types: string[] | undefined): Promise<void> {
  if (!types?.length) return;
  const known = await (productTypes ??= loadProductTypes());
  const unknown = types.filter((t) => !known.has(t.toUpperCase()));
  if (unknown.length) throw badRequest(`\`type\` takes IfcProject and the IFC types of products; not: ${unknown.join(', ')}`);
}
