// The bad-file corpus (samples/bad-files.js) as the browser tests load it: the good files
// it damages (the sample house's IFC, made by the generator; the house's scene from the
// demo backend; a generated point cloud), and one load of an entry, timed and judged.
import { badFiles, houseText, type BadFile } from '../../samples/bad-files.js';
import { buildCloud } from './pointclouds';

export type { BadFile };
export { badFiles };

export const SCENE_TYPE = 'application/vnd.platform.scene';
export const POINTCLOUD_TYPE = 'application/vnd.platform.pointcloud';

/** The good files the corpus damages, by BadFile.from. */
export async function goodFiles(): Promise<Record<'house' | 'scene' | 'pointcloud', Uint8Array>> {
  const scene = await fetch('/scenes/samples/house.scene');
  if (!scene.ok) throw new Error(`the house's scene: ${scene.status}`);
  return {
    house: new TextEncoder().encode(houseText()),
    scene: new Uint8Array(await scene.arrayBuffer()),
    pointcloud: buildCloud(gridPoints(40)).bytes,
  };
}

/** n^3 points on a 10 m grid cube, coloured by place. */
function gridPoints(n: number) {
  const positions = new Float64Array(n * n * n * 3);
  const colors = new Uint8Array(n * n * n * 3);
  let i = 0;
  for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) for (let z = 0; z < n; z++) {
    positions.set([(x * 10) / n, (y * 10) / n, (z * 10) / n], i * 3);
    colors.set([(x * 255) / n, (y * 255) / n, (z * 255) / n], i * 3);
    i++;
  }
  return { positions, colors };
}

/**
 * A URL of an entry's bytes: a blob: URL typed as its kind is served, or for a point cloud
 * (read with HTTP ranges) a file of the test server's range route, as a server serves one.
 */
export async function entryUrl(entry: BadFile, good: Record<string, Uint8Array>, index: number): Promise<string> {
  const bytes = entry.make(entry.from ? good[entry.from] : new Uint8Array(0));
  if (entry.kind === 'pointcloud') {
    const url = `/test-files/pointclouds/bad-${index}.bimcloud`;
    const put = await fetch(url, { method: 'PUT', body: bytes as BodyInit });
    if (!put.ok) throw new Error(`PUT ${url}: ${put.status}`);
    return url;
  }
  const type = entry.kind === 'scene' ? SCENE_TYPE : 'application/x-step';
  return URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
}

/** How one load of an entry ended. */
export type Ending = { kind: 'error'; error: { type?: string; message?: string } } | { kind: 'loaded' } | { kind: 'hang' };

/** Waits for a load, at most `limit` ms (then it is a hang). */
export async function ending(load: Promise<unknown>, limit: number): Promise<Ending> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<Ending>((resolve) => (timer = setTimeout(() => resolve({ kind: 'hang' }), limit)));
  const ended = load.then(
    (): Ending => ({ kind: 'loaded' }),
    (e: unknown): Ending => ({ kind: 'error', error: (e ?? {}) as { type?: string; message?: string } }),
  );
  try {
    return await Promise.race([ended, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Errors nobody caught while `run` ran: what would reach a page's console as uncaught. */
export async function uncaughtDuring<T>(run: () => Promise<T>): Promise<{ value: T; uncaught: string[] }> {
  const uncaught: string[] = [];
  const onError = (e: ErrorEvent) => uncaught.push(`error: ${e.message}`);
  const onRejection = (e: PromiseRejectionEvent) => uncaught.push(`unhandled rejection: ${(e.reason as Error)?.message ?? e.reason}`);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  try {
    const value = await run();
    await new Promise((resolve) => setTimeout(resolve, 0)); // rejections are reported a task later
    return { value, uncaught };
  } finally {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  }
}

/** The tally of a corpus run: the soak figures, and what the test asserts. */
export class Tally {
  files = 0;
  files3d = 0;
  files2d = 0;
  clearErrors = 0;
  /** Odd but valid files (BadFile.loads) that loaded, camera still finite. */
  loaded = 0;
  unclear = 0;
  hangs = 0;
  crashes = 0;
  /** The model loaded before, or a good load after, was not right. */
  broken = 0;
  readonly failures: string[] = [];
  readonly seconds: Record<string, number> = {};

  fail(what: 'unclear' | 'hangs' | 'crashes' | 'broken', name: string, why: string) {
    this[what]++;
    this.failures.push(`${name}: ${why}`.slice(0, 300));
  }
}
