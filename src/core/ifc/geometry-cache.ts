/** A geometry's vertices and triangles, copied out of web-ifc's memory. */
export interface GeometryCopy {
  vertices: Float32Array;
  triangles: Uint32Array;
}

/**
 * What is kept of the web-ifc geometries a model places more than once (a door type's
 * leaf, a table), by geometry express id: by default their copies, for forEachGeometry,
 * so that a repeat is read from here instead of through GetGeometry, which copies the
 * geometry inside wasm and takes five calls across the binding (office-20k places 35k
 * geometries, 6.4k of them distinct); PieceShape keeps what it worked out of them. web-ifc
 * keys its geometries by that id: every placement of one id has the same vertices and
 * triangles (checked on every sample and real model). A geometry is kept the second time
 * it is placed, while what is kept stays within `budget` bytes.
 */
export class GeometryCache<T = GeometryCopy> {
  private readonly seen = new Set<number>();
  private readonly kept = new Map<number, T>();
  private bytes = 0;

  constructor(private readonly budget = 32 * 1024 * 1024) {}

  /** What is kept of geometry `id`, once it was placed twice. */
  get(id: number): T | undefined {
    return this.kept.get(id);
  }

  /**
   * Tells the cache geometry `id` was read: true the second time, when `size` more bytes
   * fit, and the caller then `keep`s it.
   */
  wants(id: number, size: number): boolean {
    if (!this.seen.has(id)) {
      this.seen.add(id);
      return false;
    }
    if (this.bytes + size > this.budget) return false;
    this.bytes += size;
    return true;
  }

  keep(id: number, value: T): void {
    this.kept.set(id, value);
  }
}
