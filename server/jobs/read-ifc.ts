import { createRequire } from 'node:module';
import type { IfcAPI } from 'web-ifc';
import { createIfcApi, openModel } from '../../src/core/ifc/web-ifc-engine.js';
import { ProductReader } from '../../src/core/ifc/products.js';
import type { AttributeValue } from '../../src/core/types.js';

/**
 * What processing makes of an IFC file, with the viewer's own reading code (core/ifc:
 * the STEP checks and opening of web-ifc-engine.ts, ProductReader's records), so the
 * REST API's products are the viewer's `getProducts` records, object ids included.
 */
export interface ProductRow {
  objectId: number;
  parent: number;
  globalId: string;
  type: string;
  name: string;
  description: string | null;
  attributes: Record<string, AttributeValue>;
  definedBy: number[];
}

export interface ReadResult {
  schema: string;
  products: ProductRow[];
  /** Each definition (property set, quantity set, type object) once, as its definedBy Entity value. */
  definitions: { objectId: number; value: AttributeValue }[];
}

const WASM = createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm');
let api: Promise<IfcAPI> | undefined;

/**
 * The REST API's numbers (seed 000: objectId int64) for the viewer's decimal strings, in
 * the Entity values of attributes, in place (a JSON round trip took a quarter of the time).
 */
function numericIds<T extends AttributeValue | Record<string, AttributeValue>>(value: T): T {
  const visit = (v: AttributeValue) => {
    if (v.type === 'List') (v.value as AttributeValue[]).forEach(visit);
    else if (v.type === 'Entity') {
      const entity = v.value as { objectId: string | number; attributes?: Record<string, AttributeValue> };
      entity.objectId = Number(entity.objectId);
      if (entity.attributes) Object.values(entity.attributes).forEach(visit);
    }
  };
  if (typeof value.type === 'string') visit(value as AttributeValue);
  else Object.values(value as Record<string, AttributeValue>).forEach(visit);
  return value;
}

export async function readIfc(bytes: Uint8Array, objectIdBase: number): Promise<ReadResult> {
  const ifc = await (api ??= createIfcApi(WASM));
  const modelID = openModel(ifc, bytes);
  try {
    const reader = new ProductReader(ifc, modelID, String(objectIdBase));
    const schema = ifc.GetModelSchema(modelID);
    const products: ProductRow[] = [];
    const definitions = new Set<number>();
    for (const id of reader.productIds()) {
      const record = reader.product(id, { attributes: true, definedBy: false });
      if (!record) continue;
      const definedBy = reader.definitionIds(id);
      for (const d of definedBy) definitions.add(d);
      products.push({
        objectId: Number(record.objectId),
        parent: Number(record.parent),
        globalId: record.globalId,
        type: record.type,
        name: record.name,
        description: record.description,
        attributes: numericIds(record.attributes ?? {}),
        definedBy: definedBy.map((d) => objectIdBase + d),
      });
    }
    return {
      schema,
      products,
      definitions: [...definitions].sort((a, b) => a - b).map((d) => ({ objectId: objectIdBase + d, value: numericIds(reader.definition(d)) })),
    };
  } finally {
    ifc.CloseModel(modelID);
  }
}
