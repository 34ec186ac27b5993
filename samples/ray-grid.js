// @ts-check
/**
 * The first solid a ray hits, fast: convex solids (boxes, some cut by planes) listed in a
 * uniform grid of cells, walked cell by cell along the ray (Amanatides and Woo) until the
 * nearest hit lies before the next cell. Coordinates are local (world minus `origin`), so
 * a building millions of metres from the origin keeps its precision in the arithmetic.
 *
 *   const grid = new RayGrid(solids, origin);
 *   const t = grid.cast(ox, oy, oz, dx, dy, dz, maxRange); // local origin, unit direction
 *   if (t < Infinity) use grid.solid, grid.nx, grid.ny, grid.nz (the face's outward normal)
 */

/** @typedef {import('./scan-solids.js').Solid} Solid */
/** @typedef {import('./frame.js').Vec3} Vec3 */

/** Hits closer than this to the ray's start are the start's own solid (the scanner is never inside one). */
const NEAR = 1e-9;

export class RayGrid {
  /**
   * @param {Solid[]} solids
   * @param {Vec3} origin subtracted from every coordinate
   */
  constructor(solids, origin) {
    const n = solids.length;
    this.count = n;
    /** Per solid: min x, y, z, max x, y, z (local). */
    this.bounds = new Float64Array(6 * n);
    /** Per solid: its planes `planes[planeStart[i] .. planeStart[i + 1]]`, four numbers each (n, d; local). */
    this.planeStart = new Int32Array(n + 1);
    const planeCount = solids.reduce((sum, s) => sum + s.planes.length, 0);
    this.planes = new Float64Array(4 * planeCount);
    /** Per solid: its kind (scan-solids.js KINDS). */
    this.kinds = Uint8Array.from(solids, (s) => s.kind);
    /** The solid each ray last tested (a solid spanning many cells is tested once per ray). */
    this.stamp = new Int32Array(n);
    this.ray = 0;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    let q = 0;
    solids.forEach((s, i) => {
      for (let k = 0; k < 3; k++) {
        this.bounds[6 * i + k] = s.min[k] - origin[k];
        this.bounds[6 * i + 3 + k] = s.max[k] - origin[k];
        lo[k] = Math.min(lo[k], s.min[k] - origin[k]);
        hi[k] = Math.max(hi[k], s.max[k] - origin[k]);
      }
      this.planeStart[i] = q;
      for (const [px, py, pz, d] of s.planes) {
        this.planes.set([px, py, pz, d - (px * origin[0] + py * origin[1] + pz * origin[2])], 4 * q);
        q++;
      }
    });
    this.planeStart[n] = q;
    if (n === 0) lo.fill(0), hi.fill(0);

    // Cells of about four solids each (a wall spans several), at most 2^24 of them.
    const size = [0, 1, 2].map((k) => Math.max(hi[k] - lo[k], 1e-3));
    let cell = Math.cbrt((size[0] * size[1] * size[2]) / Math.max(1, 4 * n));
    cell = Math.min(Math.max(cell, 0.5), 8);
    while (Math.ceil(size[0] / cell) * Math.ceil(size[1] / cell) * Math.ceil(size[2] / cell) > 1 << 24) cell *= 1.25;
    this.cell = cell;
    this.lo = lo;
    this.hi = hi;
    this.cells = size.map((s) => Math.max(1, Math.ceil(s / cell)));
    const [cx, cy, cz] = this.cells;
    this.cx = cx;
    this.cy = cy;
    this.cz = cz;

    // Solids per cell, as one list indexed by cell (counted, then filled).
    const start = new Int32Array(cx * cy * cz + 1);
    const eachCell = (/** @type {number} */ i, /** @type {(c: number) => void} */ visit) => {
      const b = this.bounds;
      const range = (/** @type {number} */ k) => [
        Math.min(this.cells[k] - 1, Math.max(0, Math.floor((b[6 * i + k] - lo[k]) / cell))),
        Math.min(this.cells[k] - 1, Math.max(0, Math.floor((b[6 * i + 3 + k] - lo[k]) / cell))),
      ];
      const [x0, x1] = range(0), [y0, y1] = range(1), [z0, z1] = range(2);
      for (let z = z0; z <= z1; z++) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) visit(x + cx * (y + cy * z));
    };
    for (let i = 0; i < n; i++) eachCell(i, (c) => start[c + 1]++);
    for (let c = 0; c < cx * cy * cz; c++) start[c + 1] += start[c];
    this.items = new Int32Array(start[cx * cy * cz]);
    const fill = start.slice(0, cx * cy * cz);
    for (let i = 0; i < n; i++) eachCell(i, (c) => (this.items[fill[c]++] = i));
    this.start = start;

    /** The last hit: the solid and the outward normal of the face the ray entered. */
    this.solid = -1;
    this.nx = 0;
    this.ny = 0;
    this.nz = 0;
  }

  /**
   * The distance along the ray to the first solid, or Infinity (nothing within `maxT`).
   * @param {number} ox @param {number} oy @param {number} oz the ray's start, local
   * @param {number} dx @param {number} dy @param {number} dz a unit direction
   * @param {number} maxT
   */
  cast(ox, oy, oz, dx, dy, dz, maxT) {
    if (this.count === 0) return Infinity;
    const lo = this.lo, hi = this.hi, cell = this.cell;
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    // The stretch of the ray inside the grid.
    let t0 = 0, t1 = maxT;
    for (let k = 0; k < 3; k++) {
      const o = k === 0 ? ox : k === 1 ? oy : oz;
      const inv = k === 0 ? ix : k === 1 ? iy : iz;
      let a = (lo[k] - o) * inv, b = (hi[k] - o) * inv;
      if (a > b) { const t = a; a = b; b = t; }
      if (a !== a || b !== b) { if (o < lo[k] || o > hi[k]) return Infinity; continue; } // parallel, on the boundary
      if (a > t0) t0 = a;
      if (b < t1) t1 = b;
    }
    if (t0 > t1) return Infinity;
    const cx = this.cx, cy = this.cy, cz = this.cz;
    const px = ox + dx * t0, py = oy + dy * t0, pz = oz + dz * t0;
    let x = Math.min(cx - 1, Math.max(0, Math.floor((px - lo[0]) / cell)));
    let y = Math.min(cy - 1, Math.max(0, Math.floor((py - lo[1]) / cell)));
    let z = Math.min(cz - 1, Math.max(0, Math.floor((pz - lo[2]) / cell)));
    const sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1, sz = dz > 0 ? 1 : -1;
    let nextX = dx === 0 ? Infinity : (lo[0] + (x + (dx > 0 ? 1 : 0)) * cell - ox) * ix;
    let nextY = dy === 0 ? Infinity : (lo[1] + (y + (dy > 0 ? 1 : 0)) * cell - oy) * iy;
    let nextZ = dz === 0 ? Infinity : (lo[2] + (z + (dz > 0 ? 1 : 0)) * cell - oz) * iz;
    const stepX = Math.abs(cell * ix), stepY = Math.abs(cell * iy), stepZ = Math.abs(cell * iz);

    const ray = ++this.ray === 0x7fffffff ? this.resetStamps() : this.ray;
    const stamp = this.stamp, start = this.start, items = this.items, bounds = this.bounds, planeStart = this.planeStart, planes = this.planes;
    let best = Infinity;
    for (;;) {
      const c = x + cx * (y + cy * z);
      for (let k = start[c], end = start[c + 1]; k < end; k++) {
        const s = items[k];
        if (stamp[s] === ray) continue;
        stamp[s] = ray;
        // Entering and leaving along each slab of the box, then each plane.
        const o = 6 * s;
        let near = -Infinity, far = Infinity, face = -1;
        let a = (bounds[o] - ox) * ix, b = (bounds[o + 3] - ox) * ix;
        if (a > b) { const t = a; a = b; b = t; }
        if (a !== a) { if (ox < bounds[o] || ox > bounds[o + 3]) continue; } else { if (a > near) { near = a; face = 0; } if (b < far) far = b; }
        a = (bounds[o + 1] - oy) * iy; b = (bounds[o + 4] - oy) * iy;
        if (a > b) { const t = a; a = b; b = t; }
        if (a !== a) { if (oy < bounds[o + 1] || oy > bounds[o + 4]) continue; } else { if (a > near) { near = a; face = 1; } if (b < far) far = b; }
        a = (bounds[o + 2] - oz) * iz; b = (bounds[o + 5] - oz) * iz;
        if (a > b) { const t = a; a = b; b = t; }
        if (a !== a) { if (oz < bounds[o + 2] || oz > bounds[o + 5]) continue; } else { if (a > near) { near = a; face = 2; } if (b < far) far = b; }
        if (near > far || far <= NEAR || near >= best) continue;
        let missed = false;
        for (let p = planeStart[s], pe = planeStart[s + 1]; p < pe; p++) {
          const q = 4 * p;
          const along = planes[q] * dx + planes[q + 1] * dy + planes[q + 2] * dz;
          const room = planes[q + 3] - (planes[q] * ox + planes[q + 1] * oy + planes[q + 2] * oz);
          if (along === 0) {
            if (room < 0) { missed = true; break; }
            continue;
          }
          const t = room / along;
          if (along < 0) { if (t > near) { near = t; face = 3 + p; } } else if (t < far) far = t;
        }
        if (missed || near > far || near <= NEAR || near >= best) continue;
        best = near;
        this.solid = s;
        if (face < 3) {
          this.nx = face === 0 ? -sx : 0;
          this.ny = face === 1 ? -sy : 0;
          this.nz = face === 2 ? -sz : 0;
        } else {
          const q = 4 * (face - 3);
          this.nx = planes[q];
          this.ny = planes[q + 1];
          this.nz = planes[q + 2];
        }
      }
      // The next cell, unless the nearest hit comes first.
      if (nextX <= nextY && nextX <= nextZ) {
        if (best <= nextX || nextX > t1) break;
        x += sx;
        if (x < 0 || x >= cx) break;
        nextX += stepX;
      } else if (nextY <= nextZ) {
        if (best <= nextY || nextY > t1) break;
        y += sy;
        if (y < 0 || y >= cy) break;
        nextY += stepY;
      } else {
        if (best <= nextZ || nextZ > t1) break;
        z += sz;
        if (z < 0 || z >= cz) break;
        nextZ += stepZ;
      }
    }
    return best <= maxT ? best : Infinity;
  }

  resetStamps() {
    this.stamp.fill(0);
    this.ray = 1;
    return 1;
  }
}
