// A worker thread starts without its parent's TypeScript loader: register tsx here, then
// load the thread's own module (workerData.module, a file URL).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
