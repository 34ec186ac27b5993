// Module worker used by test/infra.test.ts: proves `new Worker(new URL('./x.ts',
// import.meta.url), { type: 'module' })` is served (and transformed) by vite.
import { probe } from './ts-probe';

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<number>) => {
  scope.postMessage({ echo: event.data * 2, probe: probe() });
};
