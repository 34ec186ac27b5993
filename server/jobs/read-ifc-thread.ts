import { parentPort, workerData } from 'node:worker_threads';
import { readIfc, readProducts, startWebIfc, withModel, writeProcessed, type ReadBatch } from './read-ifc.js';
import { warmUp } from './warm-up.js';
import type { ProductColumns } from '../../src/core/formats/scene.js';
import type { ProcessedFiles } from '../services/scenes.js';

/**
 * A worker thread that reads IFC files, one at a time, so the API process stays
 * responsive; the server runs two (ifc-reader.ts), each with the file open: one reads
 * the products, the other writes the scene and plans (a big file is read whole by one).
 * Protocol, in:
 * - `{kind: 'products', bytes, objectIdBase}`: `{kind: 'batch'}` out, each answered with
 *   `{kind: 'next'}` once written, then `{kind: 'done', result: {schema, products, table}}`
 *   (table: the scene's product table). Reading runs up to AHEAD batches ahead of the
 *   writing, so the two overlap and memory stays bounded.
 * - `{kind: 'read', bytes, objectIdBase, products, files}`: all of it here (read-ifc.ts
 *   readIfc): batches as above when `products`, then the files; `{kind: 'done', result}`.
 * - `{kind: 'files', bytes, files}`: the scene and plans to `files`, the scene's product
 *   table last, once the other thread has it (`{kind: 'table', table}` follows); then
 *   `{kind: 'done', result: {scene}}`.
 * - `{kind: 'start'}`: web-ifc started and the warm-up done, then `{kind: 'done', result: reads}`
 *   (the warm-up's readings, 0 without one).
 * Each ends in `{kind: 'error', message}` instead when it fails. With `workerData.warmUp`,
 * the thread reads the generated house a few times as it starts (warm-up.ts), and requests
 * wait for that.
 */
type Request =
  | { kind: 'start' }
  | { kind: 'products'; bytes: Uint8Array; objectIdBase: number }
  | { kind: 'read'; bytes: Uint8Array; objectIdBase: number; products: boolean; files?: ProcessedFiles }
  | { kind: 'files'; bytes: Uint8Array; files: ProcessedFiles }
  | { kind: 'table'; table: ProductColumns }
  | { kind: 'next' };

const AHEAD = 4;
const port = parentPort!;
/** The warm-up's readings; a failed one is no matter (the request's own reading says what is wrong). */
const warm: Promise<number> = workerData.warmUp ? warmUp().catch(() => 0) : Promise.resolve(0);
let credit = AHEAD;
let waiting: (() => void) | undefined;
/** The product table the other thread read, for the `files` request under way: made as that request arrives (`table` comes after it). */
let table: Promise<ProductColumns> | undefined;
let resolveTable: ((table: ProductColumns) => void) | undefined;

async function sink(batch: ReadBatch): Promise<void> {
  if (credit === 0) await new Promise<void>((resolve) => (waiting = resolve));
  credit--;
  port.postMessage({ kind: 'batch', batch });
}

async function run(message: Exclude<Request, { kind: 'table' | 'next' }>): Promise<unknown> {
  const reads = await warm;
  if (message.kind === 'start') {
    await startWebIfc();
    return reads;
  }
  credit = AHEAD;
  if (message.kind === 'read') return readIfc(message.bytes, message.objectIdBase, message.products ? sink : null, message.files);
  return withModel(message.bytes, async (ifc, modelID) => {
    if (message.kind === 'products') {
      const table = await readProducts(ifc, modelID, message.objectIdBase, sink);
      return { schema: ifc.GetModelSchema(modelID), products: table.size, table: table.columns() };
    }
    return { scene: await writeProcessed(ifc, modelID, message.files, table) };
  });
}

port.on('message', async (message: Request) => {
  if (message.kind === 'next') {
    credit++;
    waiting?.();
    waiting = undefined;
  } else if (message.kind === 'table') {
    resolveTable?.(message.table);
  } else {
    if (message.kind === 'files') table = new Promise((resolve) => (resolveTable = resolve));
    try {
      port.postMessage({ kind: 'done', result: await run(message) });
    } catch (error) {
      port.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }
});
