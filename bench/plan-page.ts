// The page side of bench/plan.mjs: runs the 2D viewer's plan worker (src/core/plan) on one
// model, cold (a fresh worker: wasm start, first parse) and warm (the same worker again),
// and reads the same plans from the processed file the platform's import writes.
import { PlanClient } from '../src/core/plan/plan-client';
import { checksums } from '../src/core/formats/checksum';
import { decodePlans } from '../src/core/formats/plans';

interface Run {
  roundTrip: number;
  timings: Record<string, number>;
}

async function runPlanBench(url: string, runs: number, plansUrl: string) {
  const bytes = await (await fetch(url)).arrayBuffer();
  // A page starts its checksums while the plans download (bim-viewer-2d): not part of reading them.
  const [plans] = await Promise.all([fetch(plansUrl).then(async (r) => new Uint8Array(await r.arrayBuffer())), checksums()]);
  const cold: Run[] = [];
  const warm: Run[] = [];
  /** ms from the processed file's bytes to the same plans, as `<bim-viewer-2d>` reads them (no worker, no web-ifc). */
  const processed: number[] = [];
  let summary = { storeys: 0, spaces: 0 };
  for (let i = 0; i < runs; i++) {
    const client = new PlanClient();
    let start = performance.now();
    const first = await client.plan(bytes.slice(0), '0');
    cold.push({ roundTrip: performance.now() - start, timings: first.timings });
    start = performance.now();
    const second = await client.plan(bytes.slice(0), '0');
    warm.push({ roundTrip: performance.now() - start, timings: second.timings });
    summary = { storeys: first.storeys.length, spaces: first.spaces.length };
    client.dispose();
    start = performance.now();
    const read = decodePlans(plans.slice(), '0');
    processed.push(performance.now() - start);
    if (read.storeys.length !== first.storeys.length) throw new Error(`${plansUrl}: ${read.storeys.length} storeys, extraction ${first.storeys.length}`);
  }
  return { cold, warm, processed, plansBytes: plans.byteLength, ...summary };
}

(window as unknown as { runPlanBench: typeof runPlanBench }).runPlanBench = runPlanBench;
(window as unknown as { planBenchReady: boolean }).planBenchReady = true;
