import type { SceneProducts } from '../formats/scene.js';
import type { SpatialNode } from '../types.js';

/**
 * A scene's product table as the page keeps it: numbers in typed arrays, each text
 * column one string sliced on demand, the type names once each. It lives as long as the
 * model, and the columns as parsed (an object per cell) take over three times the
 * memory: office-200k's table is 8 MB this way, 27 MB as parsed.
 */
export class ProductTable {
  readonly size: number;
  readonly spatial: SpatialNode | null;
  /** Ascending as the converter writes them (ProductReader.productIds): rows are found by binary search, else through `rows`. */
  private readonly expressIds: Uint32Array;
  private rows: Map<number, number> | null = null;
  private readonly parents: Uint32Array;
  private readonly typeNames: string[];
  private readonly types: Uint32Array;
  private readonly globalIds: TextColumn;
  private readonly names: TextColumn;
  private readonly descriptions: TextColumn;
  private byGlobalId: Map<string, number> | null = null;

  constructor(products: SceneProducts) {
    this.size = products.expressIds.length;
    this.spatial = products.spatial;
    this.expressIds = Uint32Array.from(products.expressIds);
    this.parents = Uint32Array.from(products.parents);
    const codes = new Map<string, number>();
    const code = (type: string) => {
      if (!codes.has(type)) codes.set(type, codes.size);
      return codes.get(type)!;
    };
    this.types = Uint32Array.from(products.types, code);
    this.typeNames = [...codes.keys()];
    this.globalIds = new TextColumn(products.globalIds);
    this.names = new TextColumn(products.names);
    this.descriptions = new TextColumn(products.descriptions);
    for (let i = 1; i < this.size && !this.rows; i++) {
      if (this.expressIds[i] <= this.expressIds[i - 1]) this.rows = new Map(Array.from(this.expressIds, (id, row) => [id, row]));
    }
  }

  /** The row of an express id, or undefined. */
  rowOf(expressId: number): number | undefined {
    if (this.rows) return this.rows.get(expressId);
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.expressIds[mid];
      if (id === expressId) return mid;
      if (id < expressId) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The express id of a GlobalId, or undefined (the index is made on first use). */
  expressIdOf(globalId: string): number | undefined {
    if (!this.byGlobalId) {
      this.byGlobalId = new Map();
      for (let row = 0; row < this.size; row++) this.byGlobalId.set(this.globalIds.at(row)!, this.expressIds[row]);
    }
    return this.byGlobalId.get(globalId);
  }

  row(row: number) {
    return {
      expressId: this.expressIds[row],
      parent: this.parents[row],
      globalId: this.globalIds.at(row) ?? '',
      type: this.typeNames[this.types[row]],
      name: this.names.at(row) ?? '',
      description: this.descriptions.at(row),
    };
  }
}

/** A column of texts (null allowed) as one string and where each cell starts. */
class TextColumn {
  private readonly text: string;
  /** Cell i is text[starts[i], starts[i + 1]), null where `nulls` says so. */
  private readonly starts: Uint32Array;
  private readonly nulls: Uint8Array | null;

  constructor(cells: (string | null)[]) {
    this.starts = new Uint32Array(cells.length + 1);
    let at = 0;
    cells.forEach((cell, i) => {
      this.starts[i] = at;
      at += cell?.length ?? 0;
    });
    this.starts[cells.length] = at;
    this.nulls = cells.includes(null) ? Uint8Array.from(cells, (c) => (c === null ? 1 : 0)) : null;
    this.text = cells.join('');
  }

  at(i: number): string | null {
    if (this.nulls?.[i]) return null;
    return this.text.slice(this.starts[i], this.starts[i + 1]);
  }
}
