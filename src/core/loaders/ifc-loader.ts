import { IfcClient } from '../ifc/ifc-client.js';
import { streamGeometry } from '../ifc/stream-geometry.js';
import { fetchBytes } from '../data/fetch-bytes.js';
import type { GeometryChunk, OpenResult } from '../ifc/protocol.js';
import type { Product, ProductOptions, SpatialNode } from '../types.js';
import type { LoadProgress, ModelLoader, Origin } from './model-loader.js';

/** The share of a load's progress that is the download. */
const DOWNLOAD_SHARE = 0.3;
/** Files this big load with a second worker, where there is one (starting it costs ~0.3 s of a core). */
const HELPER_MIN_BYTES = 1.5e6;

type Lane = { client: IfcClient; key: number };

/**
 * An IFC file, parsed by web-ifc in the viewer's worker (`client`, the model open under
 * `key`). With `workers` > 1, a big file's elements are shared with a helper worker that
 * opens its own copy; the helper goes once they are in.
 */
export class IfcLoader implements ModelLoader {
  private opened: OpenResult | null = null;
  private helper: { client: IfcClient; open: Promise<Lane> } | null = null;

  constructor(
    private readonly client: IfcClient,
    private readonly key: number,
    private readonly source: { url: string; bytes?: ArrayBuffer; response?: Response },
    private readonly base: string,
    private readonly only: number[] | null,
    private readonly workers: number,
    private readonly progress: LoadProgress,
  ) {}

  async open(): Promise<OpenResult> {
    const { url, bytes: given, response } = this.source;
    this.progress(0, 'download');
    const bytes = given ?? (await fetchBytes(url, (f) => this.progress(f * DOWNLOAD_SHARE, 'download'), response));
    this.progress(DOWNLOAD_SHARE, 'parse');
    if (this.workers > 1 && bytes.byteLength >= HELPER_MIN_BYTES) {
      const client = new IfcClient();
      this.helper = { client, open: client.open(this.key, bytes.slice(0), this.base, this.only, false).then(() => ({ client, key: this.key })) };
    }
    this.opened = await this.client.open(this.key, bytes, this.base, this.only);
    return this.opened;
  }

  async stream([first, end]: [number, number], origin: Origin | null, onChunk: (chunk: GeometryChunk) => void): Promise<Origin> {
    const units = Math.max(1, this.opened?.units ?? 1);
    const helpers = this.helper ? [this.helper.open] : [];
    try {
      return await streamGeometry({ client: this.client, key: this.key }, helpers, [first, end], origin, onChunk, (fraction) =>
        this.progress(DOWNLOAD_SHARE + ((first + fraction * (end - first)) / units) * (1 - DOWNLOAD_SHARE), 'geometry'),
      );
    } finally {
      this.dropHelper(); // it helps with the first stream only (the elements)
    }
  }

  async restream(origin: Origin, onChunk: (chunk: GeometryChunk) => void): Promise<void> {
    await streamGeometry({ client: this.client, key: this.key }, [], [0, this.opened?.units ?? 0], origin, onChunk);
  }

  products(expressIds: number[] | null, options: ProductOptions): Promise<(Product | null)[]> {
    return this.client.products(this.key, expressIds, options);
  }

  expressIds(globalIds: string[]): Promise<(number | null)[]> {
    return this.client.expressIds(this.key, globalIds);
  }

  spatial(): Promise<SpatialNode | null> {
    return this.client.spatial(this.key);
  }

  async close() {
    this.dropHelper();
    await this.client.close(this.key);
  }

  private dropHelper() {
    this.helper?.client.dispose(); // its copy of the model goes with it
    this.helper = null;
  }
}
