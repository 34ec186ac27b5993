// The workers' web-ifc, each schema's tables loaded apart (scripts/web-ifc-lazy-schemas.mjs).
import * as lazy from 'virtual:web-ifc-lazy-schemas';

export const SCHEMAS = { IFC2X3: 1, IFC4: 2, IFC4X3: 3 } as const;

/** The schemas whose tables the workers' copy has loaded so far, by name in order. */
export function builtSchemas(): string {
  return Object.entries(SCHEMAS)
    .filter(([, n]) => !Object.getOwnPropertyDescriptor(lazy.FromRawLineData, n)?.get)
    .map(([name]) => name)
    .sort()
    .join();
}
