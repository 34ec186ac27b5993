import type { IfcAPI } from 'web-ifc';
import { GeometryStream, type PieceListener } from './geometry-stream.js';
import { ProductReader } from './products.js';
import { StreamPlan } from './stream-plan.js';
import { readGrids } from './grids.js';
import { UnstyledProducts } from './unstyled.js';
import { encodeChunk, encodeEnd, encodeHeader, encodeProducts, encodeShape, preamble, type ProductColumns, type SceneEnd, type SceneProducts, type SceneShape } from '../formats/scene.js';
import type { Product, SpatialNode } from '../types.js';
import type { GeometryChunk } from './protocol.js';
import { checksums } from '../formats/checksum.js';

/**
 * Writes an open IFC model as a scene (formats/scene.ts), piece by piece through `write`
 * as the pieces are made, so a big model's geometry is never held whole. Object ids are
 * express ids (base "0"). `products` are the model's basic records, encoded, when the
 * caller has read them already (the platform's import has); otherwise they are read here.
 * `onPiece` sees every placed geometry on the way (the plans' meshes: plan/meshes.ts).
 */
export function writeScene(
  ifc: IfcAPI,
  modelID: number,
  write: (bytes: Uint8Array) => void,
  { products, onPiece }: { products?: ProductsRecord; onPiece?: PieceListener } = {},
): SceneEnd {
  const chunks = writeSceneGeometry(ifc, modelID, write, onPiece);
  return writeSceneProducts(ifc, modelID, write, chunks, products);
}

/**
 * The first part of `writeScene`: the header and the geometry. Answers how many chunks
 * it wrote, for `writeSceneProducts`, which ends the file (the platform's import writes
 * the two parts apart, while another thread reads the products).
 */
export function writeSceneGeometry(ifc: IfcAPI, modelID: number, write: (bytes: Uint8Array) => void, onPiece?: PieceListener): number {
  const reader = new ProductReader(ifc, modelID, '0');
  const plan = new StreamPlan(ifc, modelID, null);
  // Shapes found before the first chunk wait for the header (which waits for the origin).
  let early: SceneShape[] | null = [];
  const shape = (s: SceneShape) => (early ? early.push(s) : write(encodeShape(s)));
  const geometry = new GeometryStream(ifc, modelID, plan, new UnstyledProducts(ifc, modelID), { onShape: shape, onPiece });
  let chunks = 0;
  const header = () => {
    const typeNames: Record<number, string> = {};
    for (const code of plan.typeCodes()) typeNames[code] = reader.typeNameOfCode(code);
    write(encodeHeader({ schema: ifc.GetModelSchema(modelID), origin: geometry.origin, typeNames, grids: readGrids(ifc, modelID, '0') }));
    for (const s of early!) write(encodeShape(s));
    early = null;
  };
  write(preamble());
  // The header waits for the first chunk: the origin is the first vertex's.
  const send = (chunk: GeometryChunk, spaces: boolean) => {
    if (chunks++ === 0) header();
    write(encodeChunk(chunk, spaces));
  };
  for (let unit = 0; unit < plan.units; unit++) geometry.units([unit], null, send);
  geometry.end(send);
  if (chunks === 0) header();
  return chunks;
}

/**
 * The rest of `writeScene` after `writeSceneGeometry` wrote `chunks` chunks: the product
 * table with the spatial tree, read here unless given (the import's products thread
 * reads them), and the end.
 */
export function writeSceneProducts(ifc: IfcAPI, modelID: number, write: (bytes: Uint8Array) => void, chunks: number, products?: ProductsRecord): SceneEnd {
  let table = products;
  if (!table) {
    const reader = new ProductReader(ifc, modelID, '0');
    const collect = new ProductTable();
    for (const id of reader.productIds()) collect.add(reader.product(id, {})!, 0);
    collect.spatial = reader.spatial();
    table = collect.encode();
  }
  write(table.bytes);
  const end = { chunks, products: table.count };
  write(encodeEnd(end));
  return end;
}

/**
 * The scene's product table as its record's bytes (formats/scene.ts), and how many
 * products it holds: what the import's products thread hands the scene thread, without a
 * copy, where the table as arrays took the scene thread 0.2-0.3 s to receive (office-200k),
 * at the very end of the import.
 */
export interface ProductsRecord {
  bytes: Uint8Array;
  count: number;
}

/** Collects the scene's product table (object ids as express ids) record by record, and holds its spatial tree. */
export class ProductTable {
  private readonly table: ProductColumns = { expressIds: [], parents: [], globalIds: [], types: [], names: [], descriptions: [] };
  /** The spatial tree, object ids as express ids. */
  spatial: SpatialNode | null = null;

  get size(): number {
    return this.table.expressIds.length;
  }

  /** Adds a product record whose object ids have `base` added. */
  add(product: Product, base: number): void {
    const t = this.table;
    t.expressIds.push(Number(product.objectId) - base);
    t.parents.push(product.parent === '0' ? 0 : Number(product.parent) - base);
    t.globalIds.push(product.globalId);
    t.types.push(product.type);
    t.names.push(product.name);
    t.descriptions.push(product.description);
  }

  sceneProducts(): SceneProducts {
    return { spatial: this.spatial, ...this.table };
  }

  /** The table as the scene's record, once the checksums' wasm has started. */
  async record(): Promise<ProductsRecord> {
    await checksums();
    return this.encode();
  }

  /** The table as the scene's record (checksums() resolved already, as for the records before it). */
  encode(): ProductsRecord {
    return { bytes: encodeProducts(this.sceneProducts()), count: this.size };
  }
}
