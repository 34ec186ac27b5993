import { parentPort } from 'node:worker_threads';
import { readIfc } from './read-ifc.js';

/** The worker thread that reads IFC files, one request at a time, so the API process stays responsive. */
parentPort!.on('message', async ({ bytes, objectIdBase }: { bytes: Uint8Array; objectIdBase: number }) => {
  try {
    parentPort!.postMessage({ ok: true, result: await readIfc(bytes, objectIdBase) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
