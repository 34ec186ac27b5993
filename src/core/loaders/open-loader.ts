import { SCENE_MAGIC, SCENE_MEDIA_TYPE } from '../formats/scene.js';
import { fetchResponse } from '../data/fetch-bytes.js';
import type { IfcClient } from '../ifc/ifc-client.js';
import type { ModelSource } from '../data/load-sources.js';
import { IfcLoader } from './ifc-loader.js';
import { SceneLoader } from './scene-loader.js';
import type { LoadProgress, ModelLoader } from './model-loader.js';

/** What a loader needs of the viewer: its IFC worker, the model's key there, and the load's settings. */
export interface LoadContext {
  /** The viewer's IFC worker, asked for only when the source is IFC (it may start the worker). */
  client: () => IfcClient;
  key: number;
  base: string;
  /** Express ids of the only objects to load, or null for all. */
  only: number[] | null;
  workers: number;
  progress: LoadProgress;
}

/**
 * The loader of a source's format: the manifest's when it named one; otherwise the
 * answer's media type, or its first bytes (a scene starts with "BIMSCENE"), decide.
 */
export async function openLoader(source: ModelSource, context: LoadContext): Promise<ModelLoader> {
  const { client, key, base, only, workers, progress } = context;
  const scene = (response?: Response) => new SceneLoader({ url: source.url, size: source.size, productsUrl: source.productsUrl, response, bytes: source.bytes }, base, only, progress);
  const ifc = (response?: Response) => new IfcLoader(client(), key, { url: source.url, bytes: source.bytes, response }, base, only, workers, progress);
  if (source.format === 'scene') return scene();
  if (source.format === 'ifc' || source.bytes) return ifc();
  const response = await fetchResponse(source.url);
  if (response.headers.get('content-type')?.startsWith(SCENE_MEDIA_TYPE)) return scene(response);
  const sniffed = await sniff(response);
  return sniffed.scene ? scene(sniffed.response) : ifc(sniffed.response);
}

/** Reads a download's first bytes to see whether it is a scene; the response given back still has them. */
async function sniff(response: Response): Promise<{ scene: boolean; response: Response }> {
  if (!response.body) return { scene: false, response };
  const reader = response.body.getReader();
  let joined = new Uint8Array(0);
  while (joined.length < SCENE_MAGIC.length) {
    const { done, value } = await reader.read();
    if (done) break;
    const grown = new Uint8Array(joined.length + value.length);
    grown.set(joined);
    grown.set(value, joined.length);
    joined = grown;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (joined.length) controller.enqueue(joined);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const scene = new TextDecoder().decode(joined.subarray(0, SCENE_MAGIC.length)) === SCENE_MAGIC;
  return { scene, response: new Response(body, { headers: response.headers }) };
}
