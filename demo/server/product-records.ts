import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IfcAPI } from 'web-ifc';
import { createIfcApi, openModel } from '../../src/core/ifc/web-ifc-engine.js';
import { ProductReader } from '../../src/core/ifc/products.js';
import type { Product, ProductOptions } from '../../src/core/types.js';

/**
 * Product records of the demo's IFC files for viewers showing their scenes (the
 * manifest's `products` URL; the platform answers them from its database). web-ifc
 * opens a file on the first request for it, in this process, and keeps the last few
 * open: a demo backend serves a handful of models.
 */
const KEPT_OPEN = 4;

let engine: Promise<IfcAPI> | undefined;
/** Open files, by path and object id base, in the order of their last use. */
const open = new Map<string, Promise<{ reader: ProductReader; modelID: number }>>();

function readerOf(ifc: string, base: string): Promise<{ reader: ProductReader; modelID: number }> {
  engine ??= createIfcApi(createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm'));
  const key = `${base} ${ifc}`;
  let model = open.get(key);
  if (model) open.delete(key); // re-inserted below, as the last used
  else {
    model = engine.then((api) => {
      const modelID = openModel(api, new Uint8Array(readFileSync(ifc)));
      return { reader: new ProductReader(api, modelID, base), modelID };
    });
    model.catch(() => open.delete(key));
  }
  open.set(key, model);
  if (open.size > KEPT_OPEN) {
    const [oldest, closing] = open.entries().next().value!;
    open.delete(oldest);
    Promise.all([engine, closing]).then(([api, { modelID }]) => api.CloseModel(modelID), () => undefined);
  }
  return model;
}

/** The records of `expressIds` (null where one is not a product) of the IFC file at `ifc`, their object ids on `base`. */
export async function productRecords(ifc: string, base: string, expressIds: number[], options: ProductOptions): Promise<(Product | null)[]> {
  const { reader } = await readerOf(ifc, base);
  return expressIds.map((id) => reader.product(id, options));
}
