import type { IfcClient } from './ifc-client.js';
import type { GeometryChunk } from './protocol.js';

/** Units each worker has asked for ahead: while it streams one, the next is already in its queue. */
const AHEAD = 2;

/**
 * Streams units `first` up to `end` of an open model's plan through the workers that
 * have it open, each taking the next unit as it finishes one, so a worker that joins
 * late (a helper still starting) or gets slow units takes less. Without an `origin`, the
 * main worker's first unit sets it and helpers start after that. `helpers` join when they have the
 * model open, if units are left; one that fails to open is left out. Resolves to the
 * origin once every chunk is in; helpers that never joined are not waited for.
 */
export async function streamGeometry(
  main: { client: IfcClient; key: number },
  helpers: Promise<{ client: IfcClient; key: number }>[],
  [first, end]: [number, number],
  origin: [number, number, number] | null,
  onChunk: (chunk: GeometryChunk) => void,
  onProgress: (fraction: number) => void = () => {},
): Promise<[number, number, number]> {
  let next = first;
  let done = 0;
  let known: (origin: [number, number, number]) => void = () => {};
  const originKnown = origin ? Promise.resolve(origin) : new Promise<[number, number, number]>((resolve) => (known = resolve));
  const lane = async ({ client, key }: { client: IfcClient; key: number }) => {
    while (next < end) {
      const unit = next++;
      origin = (await client.stream(key, [unit], origin, onChunk)) ?? null; // null: nothing with geometry yet
      if (origin) known(origin);
      onProgress(++done / (end - first));
    }
  };
  const run = async (worker: { client: IfcClient; key: number }) => {
    await Promise.all(Array.from({ length: AHEAD }, () => lane(worker)));
    await worker.client.endStream(worker.key, onChunk);
  };
  const running: Promise<void>[] = [];
  for (const helper of helpers) {
    Promise.all([helper, originKnown]).then(([worker]) => {
      if (next >= end) return;
      const helped = run(worker);
      helped.catch(() => undefined); // reported by the await below, not as unhandled
      running.push(helped);
    }, () => undefined);
  }
  await run(main);
  // Every unit is taken: wait for the ones helpers still stream.
  await Promise.all(running);
  return origin ?? [0, 0, 0];
}
