import { createPlanWorker, schemaUrls, wasmUrl } from '../ifc/assets.js';
import { WorkerRequests } from '../ifc/worker-requests.js';
import { DEFAULT_PLAN_OPTIONS, type PlanModel, type PlanOptions, type PlanRequest, type PlanResponseMessage } from './protocol.js';

/**
 * The page's side of the plan worker: `plan(bytes)` resolves to the storey plans of one
 * IFC model. The bytes are transferred, not copied. One worker serves one viewer.
 */
export class PlanClient {
  private readonly worker: WorkerRequests<PlanResponseMessage>;

  constructor() {
    const wasm = wasmUrl();
    this.worker = new WorkerRequests<PlanResponseMessage>(createPlanWorker(wasm), 'plan');
    // Plans are sent without waiting for it: the worker takes them after its init, whose failure fails them too.
    this.request({ kind: 'init', wasmUrl: wasm, schemaUrls: schemaUrls() }).catch(() => undefined);
  }

  plan(bytes: ArrayBuffer, objectIdBase: string, options: PlanOptions = DEFAULT_PLAN_OPTIONS): Promise<PlanModel> {
    return this.request({ kind: 'plan', bytes, objectIdBase, options }, [bytes]) as Promise<PlanModel>;
  }

  dispose() {
    this.worker.dispose();
  }

  private request(request: PlanRequest, transfer: Transferable[] = []): Promise<unknown> {
    return this.worker.send(request, transfer);
  }
}
