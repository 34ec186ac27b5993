import type { BatchMaterials } from './scene/batch-material.js';
import type { IfcClient } from './ifc/ifc-client.js';
import type { GeometryChunk } from './ifc/protocol.js';
import { warmUpModel } from './ifc/warm-up-model.js';
import { SceneModel } from './scene/scene-model.js';

/** The worker's key for the warm-up model (real models count up from 1). */
const WARM_UP_KEY = 0;

/**
 * Makes the engine hot before the first model arrives. For its first seconds web-ifc's
 * wasm runs unoptimised while V8 compiles its hot functions in the background, competing
 * with the first load for the CPU (on two cores, a small model took 2-3x as long as the
 * same model loaded second). So the warm-up model (warm-up-model.ts) goes the way a real
 * model goes, parsed and streamed in the worker, its chunks into batches and drawn once
 * by `draw`, and is thrown away, while the page waits for the real model's download.
 * It stops handing out work as soon as `busy()` says a real model wants the worker, and
 * never fails: a warm-up that goes wrong leaves only a colder engine.
 */
export async function warmUp(
  client: IfcClient,
  materials: BatchMaterials,
  draw: (model: SceneModel, origin: [number, number, number]) => void,
  busy: () => boolean,
): Promise<void> {
  const model = new SceneModel('warm-up', 'warm-up', WARM_UP_KEY, '0', 0, materials);
  const add = (chunk: GeometryChunk) => void model.addChunk(chunk);
  try {
    await client.ready;
    if (busy()) return;
    model.opened = await client.open(WARM_UP_KEY, warmUpModel().buffer as ArrayBuffer, '0', null);
    let origin: [number, number, number] | null = null;
    for (let unit = 0; unit < model.opened.units && !busy(); unit++) origin = await client.stream(WARM_UP_KEY, [unit], origin, add);
    if (busy()) return;
    await client.endStream(WARM_UP_KEY, add);
    if (!busy()) draw(model, origin ?? [0, 0, 0]);
  } catch {
    // best effort (a worker that failed to start says so when a model loads)
  } finally {
    model.dispose();
    if (model.opened) void client.close(WARM_UP_KEY);
  }
}
