import { createPlanWorker, wasmUrl } from '../ifc/assets.js';
import { DEFAULT_PLAN_OPTIONS, type PlanModel, type PlanOptions, type PlanRequest, type PlanResponseMessage } from './protocol.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The page's side of the plan worker: `plan(bytes)` resolves to the storey plans of one
 * IFC model. The bytes are transferred, not copied. One worker serves one viewer.
 */
export class PlanClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly ready: Promise<unknown>;

  constructor() {
    this.worker = createPlanWorker();
    this.worker.onmessage = (event: MessageEvent<PlanResponseMessage>) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.failAll(new Error(`The plan worker failed: ${event.message || 'could not start'}`));
    };
    this.ready = this.request({ kind: 'init', wasmUrl: wasmUrl() });
    this.ready.catch(() => undefined);
  }

  async plan(bytes: ArrayBuffer, objectIdBase: string, options: PlanOptions = DEFAULT_PLAN_OPTIONS): Promise<PlanModel> {
    await this.ready;
    return this.request({ kind: 'plan', bytes, objectIdBase, options }, [bytes]) as Promise<PlanModel>;
  }

  dispose() {
    this.worker.terminate();
    this.failAll(new Error('The viewer has been disposed'));
  }

  private request(request: PlanRequest, transfer: Transferable[] = []): Promise<unknown> {
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      this.worker.postMessage({ ...request, requestId }, transfer);
    });
  }

  private receive(message: PlanResponseMessage) {
    const pending = this.pending.get(message.requestId);
    if (!pending || message.kind === 'progress') return;
    this.pending.delete(message.requestId);
    if (message.kind === 'done') pending.resolve(message.value);
    else pending.reject(new Error(message.message));
  }

  private failAll(error: Error) {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
