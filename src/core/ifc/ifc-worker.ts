/// <reference lib="webworker" />
import { IFCSPACE, type IfcAPI } from 'web-ifc';
import { checkStep, createIfcApi } from './web-ifc-engine.js';
import { GeometryBatcher } from './geometry-batcher.js';
import { ProductReader } from './products.js';
import { readGrids } from './grids.js';
import type { GeometryChunk, OpenResult, Request, RequestMessage, ResponseMessage } from './protocol.js';

/**
 * The IFC worker: web-ifc (single-threaded, see TOOLCHAIN.md) parses models, streams
 * their geometry back in transferable chunks and answers product queries, so the
 * page never parses IFC on its main thread.
 */
declare const self: DedicatedWorkerGlobalScope;

interface OpenModel {
  modelID: number;
  products: ProductReader;
  /** What the model was opened with, to stream it again (after a lost WebGL context). */
  only: Set<number> | null;
}

let api: IfcAPI | null = null;
let ready: Promise<IfcAPI> | null = null;
const models = new Map<number, OpenModel>();

function post(message: ResponseMessage, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

function init(wasmUrl: string): Promise<IfcAPI> {
  ready ??= createIfcApi(wasmUrl).then((instance) => (api = instance));
  return ready;
}

async function open(requestId: number, request: Extract<Request, { kind: 'open' }>): Promise<OpenResult> {
  const ifc = api ?? (await ready);
  if (!ifc) throw new Error('The IFC engine is not initialised');
  const bytes = new Uint8Array(request.bytes);
  checkStep(bytes);
  const modelID = ifc.OpenModel(bytes, { COORDINATE_TO_ORIGIN: false });
  if (modelID < 0) throw new Error('web-ifc could not open the IFC file');
  const model = { modelID, products: new ProductReader(ifc, modelID, request.objectIdBase), only: request.only ? new Set(request.only) : null };
  models.set(request.modelKey, model);
  return stream(ifc, requestId, model, request.origin);
}

/** Streams the geometry of an open model in chunks; object indices follow the stream order, the same every time. */
function stream(ifc: IfcAPI, requestId: number, { modelID, products, only }: OpenModel, requestedOrigin: [number, number, number] | null): OpenResult {
  const objectIndex = new Map<number, number>();
  const expressIds: number[] = [];
  const boxes: number[] = [];
  let origin = requestedOrigin;
  const send = (chunk: GeometryChunk) => {
    post({ requestId, kind: 'chunk', chunk }, [chunk.positions.buffer, chunk.normals.buffer, chunk.colors.buffer, chunk.objects.buffer, chunk.indices.buffer, chunk.ranges.buffer]);
  };
  let opaque: GeometryBatcher | undefined;
  let glass: GeometryBatcher | undefined;

  const estimate = Math.max(1, products.productIds().length);
  let streamed = 0;
  let lastProgress = 0;
  const box = new Float64Array(6);

  const onMesh = (mesh: { expressID: number; geometries: { size(): number; get(i: number): { color: { x: number; y: number; z: number; w: number }; geometryExpressID: number; flatTransformation: number[] } } }) => {
    streamed++;
    const now = performance.now();
    if (now - lastProgress > 100) {
      lastProgress = now;
      post({ requestId, kind: 'progress', progress: Math.min(0.99, streamed / estimate) });
    }
    if (only && !only.has(mesh.expressID)) return;
    const placed = mesh.geometries;
    for (let i = 0; i < placed.size(); i++) {
      const piece = placed.get(i);
      const geometry = ifc.GetGeometry(modelID, piece.geometryExpressID);
      const vertexSize = geometry.GetVertexDataSize();
      const indexSize = geometry.GetIndexDataSize();
      if (vertexSize === 0 || indexSize === 0) {
        geometry.delete();
        continue; // web-ifc yields some empty placed geometries (TOOLCHAIN.md)
      }
      const vertices = ifc.GetVertexArray(geometry.GetVertexData(), vertexSize);
      const triangles = ifc.GetIndexArray(geometry.GetIndexData(), indexSize);
      const m = piece.flatTransformation;
      if (!opaque || !glass) {
        // Unless the viewer already has one, the first vertex, rounded to whole metres,
        // becomes the origin: far-away (georeferenced) coordinates never reach float32.
        const x = vertices[0], y = vertices[1], z = vertices[2];
        origin ??= [
          Math.round(m[0] * x + m[4] * y + m[8] * z + m[12]),
          Math.round(-(m[2] * x + m[6] * y + m[10] * z + m[14])),
          Math.round(m[1] * x + m[5] * y + m[9] * z + m[13]),
        ];
        opaque = new GeometryBatcher(false, origin, send);
        glass = new GeometryBatcher(true, origin, send);
      }
      let index = objectIndex.get(mesh.expressID);
      if (index === undefined) {
        index = expressIds.length;
        objectIndex.set(mesh.expressID, index);
        expressIds.push(mesh.expressID);
        boxes.push(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
      }
      box.set(boxes.slice(index * 6, index * 6 + 6));
      const c = piece.color;
      (c.w < 1 ? glass : opaque).add(index, vertices, triangles, m, [c.x, c.y, c.z, c.w], box);
      for (let k = 0; k < 6; k++) boxes[index * 6 + k] = box[k];
      geometry.delete();
    }
  };
  ifc.StreamAllMeshes(modelID, onMesh);
  // web-ifc leaves spaces out of StreamAllMeshes; the viewer shows them on request.
  ifc.StreamAllMeshesWithTypes(modelID, [IFCSPACE], onMesh);
  opaque?.emit();
  glass?.emit();

  return {
    expressIds: new Uint32Array(expressIds),
    types: expressIds.map((id) => products.typeName(id)),
    boxes: new Float32Array(boxes),
    origin: origin ?? [0, 0, 0],
    spatial: products.spatial(),
    schema: ifc.GetModelSchema(modelID),
    grids: readGrids(ifc, modelID, products.base),
  };
}

async function handle(message: RequestMessage): Promise<unknown> {
  switch (message.kind) {
    case 'init':
      await init(message.wasmUrl);
      return true;
    case 'open':
      return open(message.requestId, message);
    case 'stream': {
      const model = models.get(message.modelKey);
      if (!model || !api) throw new Error('The model is not open');
      return stream(api, message.requestId, model, message.origin);
    }
    case 'products': {
      const model = models.get(message.modelKey);
      if (!model) throw new Error('The model is not open');
      const ids = message.expressIds ?? model.products.productIds();
      return ids.map((id) => model.products.product(id, message.options));
    }
    case 'express-id': {
      const model = models.get(message.modelKey);
      if (!model || !api) throw new Error('The model is not open');
      return message.globalIds.map((guid) => {
        const id = api!.GetExpressIdFromGuid(model.modelID, guid);
        return typeof id === 'number' && id > 0 ? id : null;
      });
    }
    case 'close': {
      const model = models.get(message.modelKey);
      if (model && api) api.CloseModel(model.modelID);
      models.delete(message.modelKey);
      return true;
    }
  }
}

self.onmessage = (event: MessageEvent<RequestMessage>) => {
  const message = event.data;
  handle(message).then(
    (value) => {
      const transfer: Transferable[] = [];
      const result = value as Partial<OpenResult> | undefined;
      if (result && result.boxes instanceof Float32Array) transfer.push(result.boxes.buffer, result.expressIds!.buffer);
      post({ requestId: message.requestId, kind: 'done', value }, transfer);
    },
    (error: unknown) => {
      if (message.kind === 'open') {
        // a failed open leaves nothing behind
        const model = models.get(message.modelKey);
        if (model && api) api.CloseModel(model.modelID);
        models.delete(message.modelKey);
      }
      post({ requestId: message.requestId, kind: 'error', message: error instanceof Error ? error.message : String(error) });
    },
  );
};
