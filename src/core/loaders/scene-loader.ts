import { RecordKind, SceneFormatError, SceneReader, type SceneHeader, type SceneRecord } from '../formats/scene.js';
import { checksums } from '../formats/checksum.js';
import { fetchResponse } from '../data/fetch-bytes.js';
import { objectId } from '../data/object-ids.js';
import { RANGE_STRIDE, type GeometryChunk, type OpenResult } from '../ifc/protocol.js';
import { ViewerError, type Product, type ProductOptions, type SpatialNode } from '../types.js';
import type { LoadProgress, ModelLoader, Origin } from './model-loader.js';
import { ProductTable } from './product-table.js';

/** Object ids per request to the products URL (seed 000's limit of a product filter). */
const IDS_PER_REQUEST = 100;

export interface SceneSource {
  url: string;
  /** The scene's size unpacked (the manifest's `size`), for progress; else the announced length. */
  size?: number;
  /** Product records with `attributes` and `definedBy` (the manifest's `products` URL). */
  productsUrl?: string;
  /** The download, when it is already open (a URL whose answer turned out to be a scene). */
  response?: Response;
  /** The file's bytes, when they are already here. */
  bytes?: ArrayBuffer;
}

/**
 * A scene (formats/scene.ts): geometry the platform read from the IFC at upload, drawn
 * as it arrives, without web-ifc. Its two units are the elements, then the spaces; the
 * product table at its end answers the basic product questions, and the platform's
 * product API (`productsUrl`) the ones that need attributes or property sets.
 */
export class SceneLoader implements ModelLoader {
  /** The picture grows from the first chunk on: reading a chunk costs next to nothing. */
  readonly firstFrameMs = 0;
  private records: SceneRecords | null = null;
  private header: SceneHeader | null = null;
  private table: Promise<ProductTable>;
  private tableRead: (products: ProductTable) => void = () => {};
  private readonly only: Set<number> | null;

  constructor(
    private readonly source: SceneSource,
    private readonly base: string,
    only: number[] | null,
    private readonly progress: LoadProgress,
  ) {
    this.only = only ? new Set(only) : null;
    this.table = new Promise((resolve) => (this.tableRead = resolve));
    this.table.catch(() => undefined);
  }

  async open(): Promise<OpenResult> {
    this.progress(0, 'download');
    const { url, size, bytes, response } = this.source;
    this.source.response = this.source.bytes = undefined; // read once: holding them would hold the bytes
    const [body] = await Promise.all([bytes ?? response ?? fetchResponse(url), checksums()]);
    this.records = new SceneRecords(url, body, size, (f) => this.progress(f, 'geometry'));
    const first = await this.records.next();
    if (first?.kind !== RecordKind.Header) throw new ViewerError('scene', `${this.source.url}: the scene does not start with its header`);
    this.header = first.header;
    const grids = this.header.grids.map((grid) => ({
      ...grid,
      objectId: objectId(this.base, Number(grid.objectId)),
      axes: grid.axes.map((axis) => ({ ...axis, objectId: objectId(this.base, Number(axis.objectId)) })),
    }));
    return { units: 2, elementUnits: 1, typeNames: this.header.typeNames, grids };
  }

  async stream([first, end]: [number, number], origin: Origin | null, onChunk: (chunk: GeometryChunk, more?: boolean) => void): Promise<Origin> {
    const used = origin ?? this.header?.origin ?? [0, 0, 0];
    const place = this.placer(used);
    const records = this.records!;
    for (let unit = first; unit < end; unit++) {
      // Reading runs on the page's thread: the spaces wait until the model just shown is drawn.
      if (unit === 1 && first === 1) await afterNextFrame();
      // Unit 0: the element chunks; unit 1: the spaces' chunks, then the products and the end.
      for (let record = await records.peek(); record?.kind === RecordKind.Chunk && (unit === 1 || !record.spaces); record = await records.peek()) {
        await records.next();
        const chunk = place(record.chunk);
        if (chunk) onChunk(chunk, records.queued > 0);
      }
      if (unit === 1) {
        await this.readTable(records);
        this.records = null;
      }
    }
    return used;
  }

  async restream(origin: Origin, onChunk: (chunk: GeometryChunk) => void): Promise<void> {
    const records = new SceneRecords(this.source.url, await fetchResponse(this.source.url), this.source.size, () => {});
    const place = this.placer(origin);
    for (let record = await records.next(); record; record = await records.next()) {
      const chunk = record.kind === RecordKind.Chunk && place(record.chunk);
      if (chunk) onChunk(chunk);
    }
  }

  async products(expressIds: number[] | null, options: ProductOptions): Promise<(Product | null)[]> {
    const table = await this.table;
    const rows = expressIds === null ? Array.from({ length: table.size }, (_, i) => i) : expressIds.map((id) => table.rowOf(id));
    const records = rows.map((row) => (row === undefined ? null : this.basicProduct(table, row)));
    if (!options.attributes && !options.definedBy) return records;
    if (!this.source.productsUrl) {
      throw new ViewerError('scene', `Attributes and property sets of a scene model come from the platform's product API, and the manifest of ${this.source.url} gives no products URL`);
    }
    const wanted = records.filter((p): p is Product => p !== null).map((p) => p.objectId);
    const full = new Map<string, Product>();
    for (let i = 0; i < wanted.length; i += IDS_PER_REQUEST) {
      for (const product of await this.fetchProducts(wanted.slice(i, i + IDS_PER_REQUEST), options)) full.set(product.objectId, product);
    }
    return records.map((p) => (p ? full.get(p.objectId) ?? p : null));
  }

  async expressIds(globalIds: string[]): Promise<(number | null)[]> {
    const table = await this.table;
    return globalIds.map((g) => table.expressIdOf(g) ?? null);
  }

  async spatial(): Promise<SpatialNode | null> {
    const { spatial } = await this.table;
    const rebase = (node: SpatialNode): SpatialNode => ({ ...node, objectId: objectId(this.base, Number(node.objectId)), children: node.children.map(rebase) });
    return spatial && rebase(spatial);
  }

  async close() {
    this.records?.cancel();
  }

  private async readTable(records: SceneRecords) {
    for (let record = await records.next(); record; record = await records.next()) {
      if (record.kind === RecordKind.Products) this.tableRead(new ProductTable(record.products));
      else if (record.kind !== RecordKind.End) throw new ViewerError('scene', `${this.source.url}: the scene has a record out of order after its product table`);
    }
  }

  /** Moves a chunk from the scene's origin to `origin`, and leaves out the objects not asked for. */
  private placer(origin: Origin): (chunk: GeometryChunk) => GeometryChunk | null {
    const from = this.header?.origin ?? origin;
    const shift = [from[0] - origin[0], from[1] - origin[1], from[2] - origin[2]];
    const moved = shift.some((d) => d !== 0);
    return (chunk) => {
      if (moved) {
        for (let i = 0; i < chunk.positions.length; i++) chunk.positions[i] += shift[i % 3];
        for (let i = 0; i < chunk.boxes.length; i++) chunk.boxes[i] += shift[i % 3];
      }
      return this.only ? keepObjects(chunk, this.only) : chunk;
    };
  }

  private basicProduct(table: ProductTable, row: number): Product {
    const { expressId, parent, ...texts } = table.row(row);
    return { objectId: objectId(this.base, expressId), parent: parent === 0 ? '0' : objectId(this.base, parent), ...texts };
  }

  private async fetchProducts(objectIds: string[], options: ProductOptions): Promise<Product[]> {
    const url = new URL(this.source.productsUrl!, document.baseURI);
    url.searchParams.set('ids', objectIds.join(','));
    if (options.attributes) url.searchParams.set('attributes', 'true');
    if (options.definedBy) url.searchParams.set('definedBy', 'true');
    const response = await fetchResponse(url.href);
    let records: Product[];
    try {
      records = await response.json();
    } catch (e) {
      throw new ViewerError('network', `The product records at ${url.href} are not JSON: ${(e as Error).message}`);
    }
    // The REST API's ids are numbers; the viewer's are decimal strings (DESIGN.md, "Object ids").
    return records.map((p) => ({ ...p, objectId: String(p.objectId), parent: String(p.parent) }));
  }
}

/** Resolves after the page's next frame (or 50 ms, where frames do not come: a hidden tab). */
function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(timer);
      resolve();
    }));
  });
}

/**
 * The records of a scene download, read as its bytes arrive. `next` gives them in order
 * (null after the end record); a download that stops short, or damaged bytes, reject
 * with what was wrong.
 */
class SceneRecords {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly scene = new SceneReader();
  private readonly queue: SceneRecord[] = [];
  private received = 0;
  private done = false;
  private readonly total: number;

  /** `body`: a download, or the bytes already here. */
  constructor(private readonly url: string, body: Response | ArrayBuffer, size: number | undefined, private readonly onProgress: (fraction: number) => void) {
    if (body instanceof ArrayBuffer) {
      // As one piece of a stream of our own: through `new Response(bytes)` Chromium copies them, 13-45 ms for 6 MB.
      this.reader = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(body));
          controller.close();
        },
      }).getReader();
      this.total = body.byteLength;
      return;
    }
    if (!body.body) throw new ViewerError('network', `${url} answered without a body`);
    this.reader = body.body.getReader();
    this.total = size ?? (Number(body.headers.get('content-length')) || 0);
  }

  /** Records read and not taken yet. */
  get queued(): number {
    return this.queue.length;
  }

  async peek(): Promise<SceneRecord | null> {
    while (this.queue.length === 0 && !this.done) await this.read();
    return this.queue[0] ?? null;
  }

  async next(): Promise<SceneRecord | null> {
    const record = await this.peek();
    this.queue.shift();
    return record;
  }

  cancel() {
    void this.reader.cancel().catch(() => undefined);
  }

  private async read() {
    let piece: ReadableStreamReadResult<Uint8Array>;
    try {
      piece = await this.reader.read();
    } catch (e) {
      throw new ViewerError('network', `Could not download ${this.url}: ${(e as Error).message}`);
    }
    try {
      if (piece.done) {
        this.done = true;
        this.scene.finish();
        return;
      }
      this.received += piece.value.length;
      if (this.total) this.onProgress(Math.min(0.99, this.received / this.total));
      this.queue.push(...this.scene.push(piece.value));
    } catch (e) {
      this.cancel();
      throw e instanceof SceneFormatError ? new ViewerError('scene', `${this.url}: ${e.message}`) : e;
    }
  }
}

/**
 * A chunk with only the pieces of the objects in `keep` (express ids), renumbered; null
 * when it has none of them. Vertices of the others stay in its arrays, unreferenced.
 */
export function keepObjects(chunk: GeometryChunk, keep: Set<number>): GeometryChunk | null {
  const renumber = new Int32Array(chunk.expressIds.length).fill(-1);
  const kept: number[] = [];
  chunk.expressIds.forEach((id, i) => {
    if (keep.has(id)) renumber[i] = kept.push(i) - 1;
  });
  if (kept.length === chunk.expressIds.length) return chunk;
  if (kept.length === 0) return null;
  const ranges: number[] = [];
  const sizes: number[] = [];
  const indices: number[] = [];
  for (let r = 0, p = 0; r < chunk.ranges.length; r += RANGE_STRIDE, p++) {
    const object = renumber[chunk.ranges[r]];
    if (object < 0) continue;
    const [start, count] = [chunk.ranges[r + 1], chunk.ranges[r + 2]];
    ranges.push(object, indices.length, count);
    sizes.push(chunk.sizes[p]);
    for (let i = start; i < start + count; i++) indices.push(chunk.indices[i]);
  }
  const objects = chunk.objects.map((o) => Math.max(0, renumber[o]));
  const pick = <T extends Uint32Array | Float32Array>(array: T, per: number): T => {
    const out = new (array.constructor as new (length: number) => T)(kept.length * per);
    kept.forEach((i, k) => out.set(array.subarray(i * per, (i + 1) * per), k * per));
    return out;
  };
  return {
    ...chunk,
    objects,
    indices: chunk.indices instanceof Uint32Array ? Uint32Array.from(indices) : Uint16Array.from(indices),
    ranges: Uint32Array.from(ranges),
    sizes: Float32Array.from(sizes),
    expressIds: pick(chunk.expressIds, 1),
    types: pick(chunk.types, 1),
    boxes: pick(chunk.boxes, 6),
  };
}
