import { parentPort } from 'node:worker_threads';
import { readIfc, type ReadBatch } from './read-ifc.js';
import type { ProcessedFiles } from '../services/scenes.js';

/**
 * The worker thread that reads IFC files, one at a time, so the API process stays
 * responsive. Protocol (ifc-reader.ts): `{kind: 'read', bytes, objectIdBase, products, files}` in;
 * `{kind: 'batch'}` out, each answered with `{kind: 'next'}` once written; then
 * `{kind: 'done'}` or `{kind: 'error'}`. Reading runs up to AHEAD batches ahead of the
 * writing, so the two overlap (the thread reads while the API process writes) and
 * memory stays bounded. The scene and plans go to `files`; `products: false` reads
 * them alone (no batches).
 */
const AHEAD = 4;
const port = parentPort!;
let credit = AHEAD;
let waiting: (() => void) | undefined;

async function sink(batch: ReadBatch): Promise<void> {
  if (credit === 0) await new Promise<void>((resolve) => (waiting = resolve));
  credit--;
  port.postMessage({ kind: 'batch', batch });
}

port.on('message', async (message: { kind: 'next' } | { kind: 'read'; bytes: Uint8Array; objectIdBase: number; products: boolean; files?: ProcessedFiles }) => {
  if (message.kind === 'next') {
    credit++;
    waiting?.();
    waiting = undefined;
    return;
  }
  credit = AHEAD;
  try {
    port.postMessage({ kind: 'done', summary: await readIfc(message.bytes, message.objectIdBase, message.products ? sink : null, message.files) });
  } catch (error) {
    port.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
});
