/// <reference lib="webworker" />
import { IFCSPACE, type IfcAPI } from 'web-ifc';
import { createIfcApi, forEachGeometry, openModel, streamMeshes, type FlatMesh } from './web-ifc-engine.js';
import { GeometryBatcher } from './geometry-batcher.js';
import { PieceShape } from './piece-shape.js';
import { ProductReader } from './products.js';
import { StreamPlan } from './stream-plan.js';
import { readGrids } from './grids.js';
import { UnstyledProducts } from './unstyled.js';
import { ifcPoint } from './web-ifc-frame.js';
import type { GeometryChunk, OpenResult, Request, RequestMessage, ResponseMessage } from './protocol.js';

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
  plan: StreamPlan;
  unstyled: UnstyledProducts;
  /** Chunks being filled while units stream, until `stream-end`. */
  batchers: { opaque: GeometryBatcher; solid: GeometryBatcher; glass: GeometryBatcher; origin: [number, number, number]; requestId: number; spaces: boolean } | null;
}

let api: IfcAPI | null = null;
const shape = new PieceShape();
let ready: Promise<IfcAPI> | null = null;
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
  models.set(request.modelKey, { modelID, products, plan, unstyled: new UnstyledProducts(ifc, modelID), batchers: null });
  const result: OpenResult = { units: plan.units, elementUnits: plan.elementUnits, typeNames: {}, grids: [] };
  if (request.details) {
    for (const code of plan.typeCodes()) result.typeNames[code] = products.typeNameOfCode(code);
    result.grids = readGrids(ifc, modelID, products.base);
  }
  return result;
}

/** Streams units of an open model's plan into its chunks; full chunks go out as they fill. */
function stream(requestId: number, { modelKey, units, origin }: Extract<Request, { kind: 'stream' }>) {
  const ifc = api!;
  const open = model(modelKey);
  const { modelID, plan, unstyled } = open;
  // A chunk belongs to the request that filled it last.
  const send = (c: GeometryChunk) => {
    post({ requestId: open.batchers!.requestId, kind: 'chunk', chunk: c }, [c.positions.buffer, c.colors.buffer, c.objects.buffer, c.indices.buffer, c.ranges.buffer, c.sizes.buffer, c.expressIds.buffer, c.types.buffer, c.boxes.buffer]);
  };
  if (open.batchers && origin && open.batchers.origin.join() !== origin.join()) throw new Error('A stream cannot change its origin');
  const begin = (first: [number, number, number]) => {
    open.batchers = {
      opaque: new GeometryBatcher(false, false, first, send),
      solid: new GeometryBatcher(false, true, first, send),
      glass: new GeometryBatcher(true, false, first, send),
      origin: first,
      requestId,
      spaces: false,
    };
    return open.batchers;
  };
  let batchers = open.batchers ?? (origin ? begin(origin) : null);
  if (batchers) batchers.requestId = requestId;
  for (const unit of units) {
    const [start, end] = plan.range(unit);
    streamMeshes(ifc, modelID, Array.from(plan.ids.subarray(start, end)), (mesh: FlatMesh, index: number) => {
      const type = plan.types[start + index];
      if (type === IFCSPACE && batchers && !batchers.spaces) {
        // Spaces (last in the plan) get chunks of their own: hidden, those are not drawn at all.
        emitAll(batchers);
        batchers.spaces = true;
      }
      forEachGeometry(ifc, modelID, mesh, (vertices, triangles, { flatTransformation: m, color: c }) => {
        const into: NonNullable<typeof batchers> = (batchers ??= begin(firstVertex(vertices, m)));
        const piece = shape.read(vertices, triangles, m);
        const rgba = unstyled.unstyled(mesh.expressID, c) ? null : [c.x, c.y, c.z, c.w];
        (c.w < 1 ? into.glass : piece.closed ? into.solid : into.opaque).add(mesh.expressID, type, vertices, triangles, m, rgba, piece);
      });
    });
  }
  return batchers?.origin ?? origin;
}

/**
 * A placed geometry's first vertex in IFC coordinates, rounded to whole metres: the
 * origin of a stream that has none, so far-away (georeferenced) coordinates never reach float32.
 */
function firstVertex(v: Float32Array, m: ArrayLike<number>): [number, number, number] {
  const p = ifcPoint(v, 0, m, new Float64Array(3));
  return [Math.round(p[0]), Math.round(p[1]), Math.round(p[2])];
}

function emitAll(batchers: NonNullable<OpenModel['batchers']>) {
  batchers.opaque.emit();
  batchers.solid.emit();
  batchers.glass.emit();
}

/** Sends what the chunks of an open stream hold, and ends it. */
function endStream(requestId: number, modelKey: number) {
  const open = model(modelKey);
  if (open.batchers) {
    open.batchers.requestId = requestId;
    emitAll(open.batchers);
  }
  open.batchers = null;
  return true;
}

async function handle(message: RequestMessage): Promise<unknown> {
  switch (message.kind) {
    case 'init':
      await init(message.wasmUrl);
      return true;
    case 'open':
      return open(message);
    case 'stream':
      return stream(message.requestId, message);
    case 'stream-end':
      return endStream(message.requestId, message.modelKey);
    case 'spatial':
      return model(message.modelKey).products.spatial();
    case 'products': {
      const { products } = model(message.modelKey);
      const ids = message.expressIds ?? products.productIds();
      return ids.map((id) => products.product(id, message.options));
    }
    case 'express-id': {
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
  }
}

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
