import { createIfcWorker, schemaUrls, wasmUrl } from './assets.js';
import { WorkerRequests } from './worker-requests.js';
import type { GeometryChunk, OpenResult, Request, ResponseMessage, WorkerMemory } from './protocol.js';
import type { Product, ProductOptions, SpatialNode } from '../types.js';

/**
 * The main thread's side of an IFC worker: one request at a time per call, answered
 * by promise; geometry chunks arrive through a callback while units stream. Requests go
 * out at once: the worker takes them in order, after its `init` (whose failure fails
 * them too), so a model does not wait for the page to hear that the engine is ready.
 */
export class IfcClient {
  private readonly worker: WorkerRequests<ResponseMessage>;
  readonly ready: Promise<unknown>;
  /** Set by dispose(): a request failing after it was given up, not because the worker failed. */
  disposed = false;

  constructor() {
    const wasm = wasmUrl();
    this.worker = new WorkerRequests<ResponseMessage>(createIfcWorker(wasm), 'IFC');
    this.ready = this.request({ kind: 'init', wasmUrl: wasm, schemaUrls: schemaUrls() });
    this.ready.catch(() => undefined); // not unhandled when nothing awaits it
  }

  /** Opens a model (the bytes are transferred); `details` also reads what only the worker that keeps the model needs. */
  open(modelKey: number, bytes: ArrayBuffer, objectIdBase: string, only: number[] | null, details = true): Promise<OpenResult> {
    return this.request({ kind: 'open', modelKey, bytes, objectIdBase, only, details }, [bytes]) as Promise<OpenResult>;
  }

  /** Streams units of an open model's plan (see the 'stream' request); resolves to the origin used. */
  stream(modelKey: number, units: number[], origin: [number, number, number] | null, onChunk: (chunk: GeometryChunk) => void): Promise<[number, number, number] | null> {
    return this.request({ kind: 'stream', modelKey, units, origin }, [], onChunk) as Promise<[number, number, number] | null>;
  }

  /** Sends the partly filled chunks of a stream and ends it. */
  async endStream(modelKey: number, onChunk: (chunk: GeometryChunk) => void): Promise<void> {
    await this.request({ kind: 'stream-end', modelKey }, [], onChunk);
  }

  spatial(modelKey: number): Promise<SpatialNode | null> {
    return this.request({ kind: 'spatial', modelKey }) as Promise<SpatialNode | null>;
  }

  products(modelKey: number, expressIds: number[] | null, options: ProductOptions): Promise<(Product | null)[]> {
    return this.request({ kind: 'products', modelKey, expressIds, options }) as Promise<(Product | null)[]>;
  }

  expressIds(modelKey: number, globalIds: string[]): Promise<(number | null)[]> {
    return this.request({ kind: 'express-id', modelKey, globalIds }) as Promise<(number | null)[]>;
  }

  async close(modelKey: number): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.request({ kind: 'close', modelKey }).catch(() => undefined);
  }

  /** What the worker holds (diagnostics: the long-session tests watch it return to where it was). */
  memory(): Promise<WorkerMemory> {
    return this.request({ kind: 'memory' }) as Promise<WorkerMemory>;
  }

  dispose() {
    this.disposed = true;
    this.worker.dispose();
  }

  private request(request: Request, transfer: Transferable[] = [], onChunk?: (chunk: GeometryChunk) => void): Promise<unknown> {
    return this.worker.send(request, transfer, onChunk && ((message) => message.kind === 'chunk' && onChunk(message.chunk)));
  }
}
