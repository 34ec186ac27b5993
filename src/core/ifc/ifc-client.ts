import { createIfcWorker, wasmUrl } from './assets.js';
import { WorkerRequests } from './worker-requests.js';
import type { GeometryChunk, OpenResult, Request, ResponseMessage } from './protocol.js';
import type { Product, ProductOptions, SpatialNode } from '../types.js';

/**
 * The main thread's side of an IFC worker: one request at a time per call, answered
 * by promise; geometry chunks arrive through a callback while units stream.
 */
export class IfcClient {
  private readonly worker = new WorkerRequests<ResponseMessage>(createIfcWorker(), 'IFC');
  readonly ready: Promise<unknown>;

  constructor() {
    this.ready = this.request({ kind: 'init', wasmUrl: wasmUrl() });
    this.ready.catch(() => undefined); // awaited by every call; not unhandled when nothing calls
  }

  /** Opens a model (the bytes are transferred); `details` also reads what only the worker that keeps the model needs. */
  async open(modelKey: number, bytes: ArrayBuffer, objectIdBase: string, only: number[] | null, details = true): Promise<OpenResult> {
    await this.ready;
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

  async spatial(modelKey: number): Promise<SpatialNode | null> {
    await this.ready;
    return this.request({ kind: 'spatial', modelKey }) as Promise<SpatialNode | null>;
  }

  async products(modelKey: number, expressIds: number[] | null, options: ProductOptions): Promise<(Product | null)[]> {
    await this.ready;
    return this.request({ kind: 'products', modelKey, expressIds, options }) as Promise<(Product | null)[]>;
  }

  async expressIds(modelKey: number, globalIds: string[]): Promise<(number | null)[]> {
    await this.ready;
    return this.request({ kind: 'express-id', modelKey, globalIds }) as Promise<(number | null)[]>;
  }

  async close(modelKey: number): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.request({ kind: 'close', modelKey }).catch(() => undefined);
  }

  dispose() {
    this.worker.dispose();
  }

  private request(request: Request, transfer: Transferable[] = [], onChunk?: (chunk: GeometryChunk) => void): Promise<unknown> {
    return this.worker.send(request, transfer, onChunk && ((message) => message.kind === 'chunk' && onChunk(message.chunk)));
  }
}
