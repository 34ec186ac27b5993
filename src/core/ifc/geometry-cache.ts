/**
 * Copies of the web-ifc geometries a model places more than once (a door type's leaf, a
 * table), by geometry express id, for forEachGeometry: a repeat is read from here instead
 * of through GetGeometry, which copies the geometry inside wasm and takes five calls
 * across the binding (office-20k places 35k geometries, 6.4k of them distinct). web-ifc
 * keys its geometries by that id: every placement of one id has the same vertices and
 * triangles (checked on every sample and real model). A geometry is copied the second
 * time it is placed, while the copies stay within `budget` bytes.
 */
export class GeometryCache {
  private readonly seen = new Set<number>();
  private readonly copies = new Map<number, { vertices: Float32Array; triangles: Uint32Array }>();
  private bytes = 0;

  constructor(private readonly budget = 32 * 1024 * 1024) {}

  /** The copy of geometry `id`, once it was placed twice. */
  get(id: number): { vertices: Float32Array; triangles: Uint32Array } | undefined {
    return this.copies.get(id);
  }

  /** Tells the cache geometry `id` was read; it copies the views the second time. */
  read(id: number, vertices: Float32Array, triangles: Uint32Array): void {
    if (!this.seen.has(id)) {
      this.seen.add(id);
      return;
    }
    const size = vertices.byteLength + triangles.byteLength;
    if (this.bytes + size > this.budget) return;
    this.bytes += size;
    this.copies.set(id, { vertices: vertices.slice(), triangles: triangles.slice() });
  }
}
