import type { BatchMaterials } from './scene/batch-material.js';
import type { IfcClient } from './ifc/ifc-client.js';
import type { GeometryChunk, OpenResult } from './ifc/protocol.js';
import { warmUpModel } from './ifc/warm-up-model.js';
import { SceneModel } from './scene/scene-model.js';

/** The worker's key for the warm-up model (real models count up from 1). */
const WARM_UP_KEY = 0;

/** What the worker made of the warm-up model: its open result and chunks. */
export interface WarmUpModel {
  opened: OpenResult;
  chunks: GeometryChunk[];
  origin: [number, number, number];
}

/*
 * Makes the engine hot before the first model arrives. For its first seconds web-ifc's
 * wasm runs unoptimised while V8 compiles its hot functions in the background, competing
 * with the first load for the CPU (on two cores, a small model took 2-3x as long as the
 * same model loaded second). So the warm-up model (warm-up-model.ts) goes the way a real
 * model goes and is thrown away: parsed and streamed in the worker (warmUpInWorker, which
 * an engine starts as soon as it exists, even before a viewer does: engine.ts), then its
 * chunks into batches and drawn once on the page (warmUp). Both halves stop as soon as
 * `busy()` says a real model wants the worker, and never fail: a warm-up that goes
 * wrong leaves only a colder engine.
 */

/** The worker's half: the warm-up model parsed and streamed; null when a real model came first, or on failure. */
export async function warmUpInWorker(client: IfcClient, busy: () => boolean): Promise<WarmUpModel | null> {
  const chunks: GeometryChunk[] = [];
  const add = (chunk: GeometryChunk) => void chunks.push(chunk);
  let opened: OpenResult | null = null;
  try {
    await client.ready;
    if (busy()) return null;
    opened = await client.open(WARM_UP_KEY, warmUpModel().buffer as ArrayBuffer, '0', null);
    let origin: [number, number, number] | null = null;
    for (let unit = 0; unit < opened.units && !busy(); unit++) origin = await client.stream(WARM_UP_KEY, [unit], origin, add);
    if (busy()) return null;
    await client.endStream(WARM_UP_KEY, add);
    return { opened, chunks, origin: origin ?? [0, 0, 0] };
  } catch {
    return null; // a worker that failed to start says so when a model loads
  } finally {
    if (opened) void client.close(WARM_UP_KEY);
  }
}

/** The page's half: the worker's chunks into batches, drawn once by `draw`, thrown away. */
export async function warmUp(
  worker: Promise<WarmUpModel | null>,
  materials: BatchMaterials,
  draw: (model: SceneModel, origin: [number, number, number]) => void,
  busy: () => boolean,
): Promise<void> {
  const warm = await worker;
  if (!warm || busy()) return;
  const model = new SceneModel('warm-up', 'warm-up', WARM_UP_KEY, '0', 0, materials);
  try {
    model.opened = warm.opened;
    for (const chunk of warm.chunks) model.addChunk(chunk);
    draw(model, warm.origin);
  } catch {
    // best effort
  } finally {
    model.dispose();
  }
}
