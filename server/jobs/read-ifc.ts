import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IfcAPI } from 'web-ifc';
import { createIfcApi, openModel, type ModelLines } from '../../src/core/ifc/web-ifc-engine.js';
import { ProductReader } from '../../src/core/ifc/products.js';
import { StepModel } from '../../src/core/ifc/step-model.js';
import { doorSymbols } from '../../src/core/plan/plan-symbols.js';
import { spaceNames } from '../../src/core/plan/space-names.js';
import { readUnits } from '../../src/core/ifc/units.js';
import { ProductTable, writeSceneGeometry, writeSceneProducts, type ProductsRecord } from '../../src/core/ifc/scene-converter.js';
import type { SceneEnd } from '../../src/core/formats/scene.js';
import { checksums } from '../../src/core/formats/checksum.js';
import { encodePlans } from '../../src/core/formats/plans.js';
import { extractPlan, type PlanInputs } from '../../src/core/plan/extract-plan.js';
import { MeshCollector } from '../../src/core/plan/meshes.js';
import { DEFAULT_PLAN_OPTIONS } from '../../src/core/plan/protocol.js';
import type { ProcessedFiles } from '../services/scenes.js';
import type { AttributeValue } from '../../src/core/types.js';

/**
 * What processing makes of an IFC file, with the viewer's own reading code (core/ifc:
 * the STEP checks and opening of web-ifc-engine.ts, ProductReader's records), so the
 * REST API's products are the viewer's `getProducts` records, object ids included.
 */
export interface ProductRow {
  objectId: number;
  /** The product's place in the file's order, from 1: the order of product pages. */
  seq: number;
  parent: number;
  globalId: string;
  type: string;
  name: string;
  description: string | null;
  attributes: Record<string, AttributeValue>;
  definedBy: number[];
}

/** A definition (property set, quantity set, type object) as its definedBy Entity value. */
export interface DefinitionRow {
  objectId: number;
  value: AttributeValue;
}

/**
 * Products in object id order, with the definitions first referenced by them (each once
 * per file), as the JSON text the database's insert takes (jsonb_to_recordset): a batch
 * crosses from the reader thread to the API process as one string, where an object tree
 * took the API process longer to receive and write out again than the thread took to
 * read it (office-20k: 0.66 s to receive, 0.3 s to stringify, 1.1 s of reading).
 */
export interface ReadBatch {
  /** How many products `products` holds. */
  count: number;
  /** ProductRow[] as JSON. */
  products: string;
  /** DefinitionRow[] as JSON, or null when the batch brings none. */
  definitions: string | null;
}

export interface ReadSummary {
  schema: string;
  products: number;
  /** What the scene file holds, when one was asked for. */
  scene?: SceneEnd;
}

/** readIfc's shape, as the jobs take it (in the server: a worker thread, ifc-reader.ts). */
export type ReadIfc = (bytes: Uint8Array, objectIdBase: number, sink: ((batch: ReadBatch) => Promise<void>) | null, files?: ProcessedFiles) => Promise<ReadSummary>;

/** Products per batch: a big model never sits whole in memory, nor in one message or transaction. */
export const BATCH_SIZE = 1000;

const WASM = createRequire(import.meta.url).resolve('web-ifc/web-ifc-node.wasm');
let api: Promise<IfcAPI> | undefined;

/**
 * Reads the file and hands its products to `sink` in batches of BATCH_SIZE, waiting for
 * each (the writer's pace holds memory down); at least one batch, maybe empty. With
 * `files`, then writes the model's scene and plans (formats/scene.ts, formats/plans.ts)
 * to them. Without a `sink`, only those are written (a revision processed again:
 * jobs/scene-job.ts). All in this thread, one part after the other; the server runs the
 * two parts in two threads at once (ifc-reader.ts).
 */
export async function readIfc(
  bytes: Uint8Array,
  objectIdBase: number,
  sink: ((batch: ReadBatch) => Promise<void>) | null,
  files?: ProcessedFiles,
): Promise<ReadSummary> {
  // The products first, from the bytes, as the products thread reads them: the warm-up (warm-up.ts) makes both threads' code hot.
  const read = sink ? await readProductsPart(bytes, objectIdBase, sink) : undefined;
  return withModel(bytes, async (ifc, modelID) => {
    const scene = files && (await writeProcessed(ifc, modelID, files, { products: read?.table.record(), plan: read?.plan }));
    return { schema: ifc.GetModelSchema(modelID), products: read?.table.size ?? 0, scene };
  });
}

/**
 * The products' part of a reading, from the file's bytes (a StepModel: web-ifc does not
 * open the file): the plan's inputs first (the doors' symbols, the spaces' names; handed
 * to `plan` at once: the other thread's plans wait for them), then every product to
 * `sink` in batches, and the scene's product table.
 */
export async function readProductsPart(bytes: Uint8Array, objectIdBase: number, sink: (batch: ReadBatch) => Promise<void>, plan: (reads: Required<PlanReads>) => void = () => {}) {
  // The model's calls take a modelID; a StepModel knows one file only.
  const model = new StepModel(await startWebIfc(), bytes), id = 0;
  try {
    const reads: Required<PlanReads> = { symbols: doorSymbols(model, id, readUnits(model, id)), spaceNames: spaceNames(model, id) };
    plan(reads);
    const table = await readProducts(model, id, objectIdBase, sink);
    return { schema: model.GetModelSchema(), table, plan: reads };
  } finally {
    model.close();
  }
}

/** This thread's web-ifc, started on first use. */
export function startWebIfc(): Promise<IfcAPI> {
  return (api ??= createIfcApi(WASM));
}

/** Runs `fn` on the file opened in this thread's web-ifc (the viewer's STEP checks first), closed after. */
export async function withModel<T>(bytes: Uint8Array, fn: (ifc: IfcAPI, modelID: number) => Promise<T>): Promise<T> {
  const ifc = await startWebIfc();
  const modelID = openModel(ifc, bytes);
  try {
    return await fn(ifc, modelID);
  } finally {
    ifc.CloseModel(modelID);
  }
}

/**
 * Every product with its attributes, and each definition once, to `sink`; the scene's
 * product table on the way, and its spatial tree (from the relations read for the
 * products). Lines come from the model's GetLine: the import's is a StepModel (the file's
 * own bytes tokenized in JavaScript).
 */
export async function readProducts(ifc: ModelLines, modelID: number, objectIdBase: number, sink: (batch: ReadBatch) => Promise<void>): Promise<ProductTable> {
  // Entity values' ids as the REST API's numbers (seed 000: objectId int64), not the viewer's strings.
  const reader = new ProductReader(ifc, modelID, String(objectIdBase), { numericEntityIds: true });
  const seen = new Set<number>();
  const table = new ProductTable();
  let products: ProductRow[] = [];
  let definitions: DefinitionRow[] = [];
  const flush = async () => {
    await sink({ count: products.length, products: JSON.stringify(products), definitions: definitions.length ? JSON.stringify(definitions) : null });
    products = [];
    definitions = [];
  };
  for (const id of reader.productIds()) {
    const record = reader.product(id, { attributes: true, definedBy: false });
    if (!record) continue;
    const definedBy = reader.definitionIds(id);
    for (const d of definedBy) {
      if (seen.has(d)) continue;
      seen.add(d);
      definitions.push({ objectId: objectIdBase + d, value: reader.definition(d) });
    }
    products.push({
      objectId: Number(record.objectId),
      seq: table.size + 1,
      parent: Number(record.parent),
      globalId: record.globalId,
      type: record.type,
      name: record.name,
      description: record.description,
      attributes: record.attributes ?? {},
      definedBy: definedBy.map((d) => objectIdBase + d),
    });
    table.add(record, objectIdBase);
    if (products.length === BATCH_SIZE) await flush();
  }
  if (products.length || table.size === 0) await flush();
  table.spatial = reader.spatial('0');
  return table;
}

/** What the other thread reads for the plans: the doors' symbols, the spaces' names. */
export type PlanReads = Pick<PlanInputs, 'symbols' | 'spaceNames'>;

/**
 * What the other thread reads for writeProcessed (the products, for the scene's table;
 * the plans' inputs), each awaited only where it is needed: it may still be on its way.
 */
export interface OtherReads {
  products?: ProductsRecord | Promise<ProductsRecord>;
  plan?: PlanReads | Promise<PlanReads>;
}

/**
 * The scene and the plans of an open model, to `files`: the plans' meshes collected in the
 * scene's pass over the geometry. What `other` lacks is read here.
 */
export async function writeProcessed(ifc: IfcAPI, modelID: number, files: ProcessedFiles, other: OtherReads = {}): Promise<SceneEnd> {
  const fd = openSync(files.scene, 'w');
  try {
    const write = (bytes: Uint8Array) => void writeSync(fd, bytes);
    const meshes = new MeshCollector();
    await checksums();
    const chunks = writeSceneGeometry(ifc, modelID, write, meshes.add);
    writeFileSync(files.plans, encodePlans(extractPlan(ifc, modelID, '0', DEFAULT_PLAN_OPTIONS, { meshes, ...(await other.plan) })));
    return writeSceneProducts(ifc, modelID, write, chunks, await other.products);
  } finally {
    closeSync(fd);
  }
}
