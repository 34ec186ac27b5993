/// <reference lib="webworker" />
import type { IfcAPI } from 'web-ifc';
import { createIfcApi, loadSchema, openModel, wasmBytes, type SchemaUrls } from './web-ifc-engine.js';
import { GeometryStream } from './geometry-stream.js';
import { ProductReader } from './products.js';
import { StreamPlan } from './stream-plan.js';
import { readGrids } from './grids.js';
import { UnstyledProducts } from './unstyled.js';
import type { GeometryChunk, OpenResult, Request, RequestMessage, ResponseMessage, WorkerMemory } from './protocol.js';
import { initFromName } from './worker-name.js';

/**
 * The IFC worker: web-ifc (single-threaded, see TOOLCHAIN.md) parses models, streams
 * their geometry back in transferable chunks and answers product queries, so the
 * page never parses IFC on its main thread. Several of these workers may open the same
 * file and stream different units of its plan at once (see stream-geometry.ts).
 */
declare const self: DedicatedWorkerGlobalScope;

interface OpenModel {
  modelID: number;
  products: ProductReader;
  geometry: GeometryStream;
}

let api: IfcAPI | null = null;
let ready: Promise<IfcAPI> | null = null;
let schemaUrls: SchemaUrls | null = null;
const models = new Map<number, OpenModel>();

function post(message: ResponseMessage, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

function init(wasmUrl: string): Promise<IfcAPI> {
  ready ??= createIfcApi(wasmUrl).then((instance) => (api = instance));
  return ready;
}

function model(modelKey: number): OpenModel {
  const open = models.get(modelKey);
  if (!open || !api) throw new Error('The model is not open');
  return open;
}

async function open(request: Extract<Request, { kind: 'open' }>): Promise<OpenResult> {
  const ifc = api ?? (await ready);
  if (!ifc) throw new Error('The IFC engine is not initialised');
  const modelID = openModel(ifc, new Uint8Array(request.bytes));
  const products = new ProductReader(ifc, modelID, request.objectIdBase);
  const plan = new StreamPlan(ifc, modelID, request.only ? new Set(request.only) : null);
  models.set(request.modelKey, { modelID, products, geometry: new GeometryStream(ifc, modelID, plan, new UnstyledProducts(ifc, modelID)) });
  const result: OpenResult = { units: plan.units, elementUnits: plan.elementUnits, typeNames: {}, grids: [] };
  if (request.details) {
    for (const code of plan.typeCodes()) result.typeNames[code] = products.typeNameOfCode(code);
    result.grids = readGrids(ifc, modelID, products.base);
  }
  return result;
}

/**
 * Loads web-ifc's tables of a model's schema, which products and the spatial tree read
 * lines with. Not before the model's geometry: streaming needs none, nor do the grids and
 * units (raw lines), so a model shows without waiting for them.
 */
const withTables = (modelKey: number) => loadSchema(api!, model(modelKey).modelID, schemaUrls);

/** Sends chunks to the request that filled them last (a chunk fills up across requests, until `stream-end`). */
const sendTo = (requestId: number) => (c: GeometryChunk) =>
  post({ requestId, kind: 'chunk', chunk: c }, [c.positions.buffer, c.colors.buffer, c.objects.buffer, c.indices.buffer, c.ranges.buffer, c.sizes.buffer, c.expressIds.buffer, c.types.buffer, c.boxes.buffer]);

async function handle(message: RequestMessage): Promise<unknown> {
  switch (message.kind) {
    case 'init':
      schemaUrls = message.schemaUrls;
      await init(message.wasmUrl);
      return true;
    case 'open':
      return open(message);
    case 'stream':
      return model(message.modelKey).geometry.units(message.units, message.origin, sendTo(message.requestId));
    case 'stream-end':
      model(message.modelKey).geometry.end(sendTo(message.requestId));
      return true;
    case 'spatial':
      await withTables(message.modelKey);
      return model(message.modelKey).products.spatial();
    case 'products': {
      await withTables(message.modelKey);
      const { products } = model(message.modelKey);
      const ids = message.expressIds ?? products.productIds();
      return ids.map((id) => products.product(id, message.options));
    }
    case 'express-id': {
      await withTables(message.modelKey); // web-ifc's GlobalId index reads the lines through them
      const { modelID } = model(message.modelKey);
      return message.globalIds.map((guid) => {
        const id = api!.GetExpressIdFromGuid(modelID, guid);
        return typeof id === 'number' && id > 0 ? id : null;
      });
    }
    case 'close': {
      const open = models.get(message.modelKey);
      if (open && api) api.CloseModel(open.modelID);
      models.delete(message.modelKey);
      return true;
    }
    case 'memory':
      return { models: models.size, wasmBytes: api ? wasmBytes(api) : 0 } satisfies WorkerMemory;
  }
}

// Start web-ifc now, from the wasm URL in the worker's name.
initFromName(self.name, init);

self.onmessage = (event: MessageEvent<RequestMessage>) => {
  const message = event.data;
  handle(message).then(
    (value) => post({ requestId: message.requestId, kind: 'done', value }),
    (error: unknown) => {
      if (message.kind === 'open') {
        // a failed open leaves nothing behind
        const open = models.get(message.modelKey);
        if (open && api) api.CloseModel(open.modelID);
        models.delete(message.modelKey);
      }
      post({ requestId: message.requestId, kind: 'error', message: error instanceof Error ? error.message : String(error) });
    },
  );
};
