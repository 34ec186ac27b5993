// The page side of bench/plan.mjs: runs the 2D viewer's plan worker (src/core/plan) on one
// model, cold (a fresh worker: wasm start, first parse) and warm (the same worker again).
import { PlanClient } from '../src/core/plan/plan-client';

interface Run {
  roundTrip: number;
  timings: Record<string, number>;
}

async function runPlanBench(url: string, runs: number) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const cold: Run[] = [];
  const warm: Run[] = [];
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
  }
  return { cold, warm, ...summary };
}

(window as unknown as { runPlanBench: typeof runPlanBench }).runPlanBench = runPlanBench;
(window as unknown as { planBenchReady: boolean }).planBenchReady = true;
