// The index worker's entry: a worker thread starts without its parent's TypeScript loader,
// so register tsx first when the module is TypeScript source.
import { workerData } from 'node:worker_threads';

if (workerData.module.endsWith('.ts')) (await import('tsx/esm/api')).register();
await import(workerData.module);
