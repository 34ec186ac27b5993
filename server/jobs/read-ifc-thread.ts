import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { readIfc, readProductsPart, startWebIfc, withModel, writeProcessed, type PlanReads, type ReadBatch } from './read-ifc.js';
import { warmUp } from './warm-up.js';
import { symbolBuffers } from '../../src/core/plan/plan-symbols.js';
import type { ProductsRecord } from '../../src/core/ifc/scene-converter.js';
import type { ProcessedFiles } from '../services/scenes.js';

/**
 * A worker thread that reads IFC files, one at a time, so the API process stays
 * responsive; the server runs two (ifc-reader.ts): one reads the products (from the
 * file's bytes, a StepModel), the other writes the scene and plans with the file open in
 * web-ifc (a big file is read whole by one, with the file open).
 * Protocol, in:
 * - `{kind: 'products', bytes, objectIdBase, peer}`: the doors' plan symbols and the spaces'
 *   names to `peer` (a port to the other thread, `{kind: 'plan'}`), then `{kind: 'batch'}` out,
 *   each answered with `{kind: 'next'}` once written, then the scene's product table (its
 *   record's bytes) to `peer` (`{kind: 'table'}`) and `{kind: 'done', result: {schema,
 *   products}}`. Reading runs up to AHEAD batches ahead of the writing, so the two overlap
 *   and memory stays bounded. Symbols and table go across as buffers, without a copy.
 * - `{kind: 'files', bytes, files, peer}`: the scene and plans to `files`, with what the
 *   other thread sends on `peer` (the plan's inputs before the plans, the table last); then
 *   `{kind: 'done', result: {scene}}`.
 * - `{kind: 'read', bytes, objectIdBase, products, files}`: all of it here (read-ifc.ts
 *   readIfc): batches as above when `products`, then the files; `{kind: 'done', result}`.
 * - `{kind: 'start'}`: web-ifc started and the warm-up done, then `{kind: 'done', result: reads}`
 *   (the warm-up's readings, 0 without one).
 * Each ends in `{kind: 'error', message}` instead when it fails. With `workerData.warmUp`,
 * the thread reads the generated house a few times as it starts (warm-up.ts), and requests
 * wait for that.
 */
type Request =
  | { kind: 'start' }
  | { kind: 'products'; bytes: Uint8Array; objectIdBase: number; peer: MessagePort }
  | { kind: 'read'; bytes: Uint8Array; objectIdBase: number; products: boolean; files?: ProcessedFiles }
  | { kind: 'files'; bytes: Uint8Array; files: ProcessedFiles; peer: MessagePort }
  | { kind: 'next' };

type PeerMessage = ({ kind: 'plan' } & PlanReads) | { kind: 'table'; table: ProductsRecord };

const AHEAD = 4;
const port = parentPort!;
/** The warm-up's readings; a failed one is no matter (the request's own reading says what is wrong). */
const warm: Promise<number> = workerData.warmUp ? warmUp().catch(() => 0) : Promise.resolve(0);
let credit = AHEAD;
let waiting: (() => void) | undefined;

async function sink(batch: ReadBatch): Promise<void> {
  if (credit === 0) await new Promise<void>((resolve) => (waiting = resolve));
  credit--;
  port.postMessage({ kind: 'batch', batch });
}

/** The other thread's plan inputs and table, as they come on `peer`. */
function fromPeer(peer: MessagePort) {
  let plan!: (value: PlanReads) => void;
  let table!: (value: ProductsRecord) => void;
  const reads = { plan: new Promise<PlanReads>((resolve) => (plan = resolve)), products: new Promise<ProductsRecord>((resolve) => (table = resolve)) };
  peer.on('message', (message: PeerMessage) => (message.kind === 'plan' ? plan(message) : table(message.table)));
  return reads;
}

async function run(message: Exclude<Request, { kind: 'next' }>): Promise<unknown> {
  const reads = await warm;
  if (message.kind === 'start') {
    await startWebIfc();
    return reads;
  }
  credit = AHEAD;
  if (message.kind === 'read') return readIfc(message.bytes, message.objectIdBase, message.products ? sink : null, message.files);
  const { peer } = message;
  try {
    if (message.kind === 'files') return await withModel(message.bytes, async (ifc, modelID) => ({ scene: await writeProcessed(ifc, modelID, message.files, fromPeer(peer)) }));
    return await readProductsOnly(message.bytes, message.objectIdBase, peer);
  } finally {
    peer.close();
  }
}

/** The products thread's part (read-ifc.ts readProductsPart): the plan's inputs, then the table, to the other thread. */
async function readProductsOnly(bytes: Uint8Array, objectIdBase: number, peer: MessagePort) {
  const send = (reads: Required<PlanReads>) => peer.postMessage({ kind: 'plan', ...reads } satisfies PeerMessage, symbolBuffers(reads.symbols));
  const { schema, table } = await readProductsPart(bytes, objectIdBase, sink, send);
  const record = await table.record();
  peer.postMessage({ kind: 'table', table: record } satisfies PeerMessage, [record.bytes.buffer as ArrayBuffer]);
  return { schema, products: table.size };
}

port.on('message', async (message: Request) => {
  if (message.kind === 'next') {
    credit++;
    waiting?.();
    waiting = undefined;
    return;
  }
  try {
    port.postMessage({ kind: 'done', result: await run(message) });
  } catch (error) {
    port.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
});
