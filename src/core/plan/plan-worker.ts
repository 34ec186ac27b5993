/// <reference lib="webworker" />
import type { IfcAPI } from 'web-ifc';
import { createIfcApi, loadSchema, openModel, type SchemaUrls } from '../ifc/web-ifc-engine.js';
import { extractPlan } from './extract-plan.js';
import { initFromName } from '../ifc/worker-name.js';
import { CUT_KINDS, type PlanLines, type PlanModel, type PlanRequest, type PlanRequestMessage, type PlanResponseMessage } from './protocol.js';

/**
 * The plan worker: web-ifc (single-threaded, see TOOLCHAIN.md) opens a model, the
 * plan is extracted (extract-plan.ts) and sent back with its buffers transferred, and
 * the model is closed again: a plan needs nothing more from the IFC afterwards.
 */
declare const self: DedicatedWorkerGlobalScope;

let ready: Promise<IfcAPI> | null = null;
let schemaUrls: SchemaUrls | null = null;

function post(message: PlanResponseMessage, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

function init(wasmUrl: string): Promise<IfcAPI> {
  ready ??= createIfcApi(wasmUrl);
  return ready;
}

async function plan(request: Extract<PlanRequest, { kind: 'plan' }>): Promise<PlanModel> {
  if (!ready) throw new Error('The plan worker is not initialised');
  const api = await ready;
  const start = performance.now();
  const modelID = openModel(api, new Uint8Array(request.bytes));
  try {
    await loadSchema(api, modelID, schemaUrls);
    const opened = performance.now();
    const result = extractPlan(api, modelID, request.objectIdBase, request.options);
    result.timings = { open: opened - start, ...result.timings, total: performance.now() - start };
    return result;
  } finally {
    api.CloseModel(modelID);
  }
}

// Start web-ifc now, from the wasm URL in the worker's name.
initFromName(self.name, init);

self.onmessage = (event: MessageEvent<PlanRequestMessage>) => {
  const message = event.data;
  let work: Promise<unknown>;
  if (message.kind === 'init') {
    schemaUrls = message.schemaUrls;
    work = init(message.wasmUrl).then(() => true);
  } else work = plan(message);
  work.then(
    (value) => {
      const transfer = message.kind === 'plan' ? planTransferables(value as PlanModel) : [];
      post({ requestId: message.requestId, kind: 'done', value }, transfer);
    },
    (error: unknown) => post({ requestId: message.requestId, kind: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
};

/** The buffers of a plan, to transfer rather than copy. */
function planTransferables(plan: PlanModel): Transferable[] {
  const out = new Set<ArrayBufferLike>();
  const lines = (l: PlanLines) => { out.add(l.coords.buffer); out.add(l.starts.buffer); out.add(l.owners.buffer); };
  for (const storey of plan.storeys) {
    for (const kind of CUT_KINDS) lines(storey.cut[kind]);
    lines(storey.below);
    lines(storey.symbols);
    out.add(storey.bounds.buffer);
  }
  for (const space of plan.spaces) {
    lines(space.rings);
    out.add(space.bounds.buffer);
  }
  return [...out] as Transferable[];
}
