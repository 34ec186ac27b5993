// @ts-check
/**
 * The sample building as convex solids a scanner's rays can hit: each a box, sometimes cut
 * by a few planes (the roof's slopes, a stair step's underside), rebuilt from the truth's
 * boxes and building.js's dimensions. Walls and slabs are split into boxes around their
 * openings; a window is a frame of four bars and a pane; a table a top on four legs.
 * Every solid lies inside the box the truth gives its product.
 *
 *   const { solids, ground } = buildingSolids(truth);
 */
import { DIMENSIONS } from './building.js';

/** @typedef {import('./frame.js').Vec3} Vec3 */
/** @typedef {import('./frame.js').Box} Box */
/**
 * @typedef {object} Solid
 * @property {Vec3} min
 * @property {Vec3} max
 * @property {[number, number, number, number][]} planes further half-spaces n·p <= d (n a unit normal), world coordinates
 * @property {number} kind an index into KINDS
 * @property {number} product the product's express id
 */
/**
 * @typedef {object} Ground the terrain around the building: a level plane over a rectangle
 * @property {number} z
 * @property {[number, number]} min x, y
 * @property {[number, number]} max x, y
 */
/**
 * @typedef {{ type: string, name: string, id: number, storey: number | null, box: Box | null, material?: string | null }} TruthProduct
 * @typedef {{ products: TruthProduct[], site?: { origin?: Vec3 }, parameters?: { openings?: boolean }, box: Box | null }} ScanTruth
 */

/** What a scanner tells apart: colour (0-255), how much light it returns, and the LAS class. */
export const KINDS = Object.freeze([
  { name: 'ground', color: [104, 128, 72], variation: 0.25, reflectivity: 0.35, classification: 2 },
  { name: 'exterior wall', color: [217, 209, 191], variation: 0.06, reflectivity: 0.7, classification: 6 },
  { name: 'partition', color: [242, 242, 235], variation: 0.04, reflectivity: 0.8, classification: 6 },
  { name: 'slab', color: [153, 153, 158], variation: 0.08, reflectivity: 0.55, classification: 6 },
  { name: 'roof', color: [150, 72, 52], variation: 0.1, reflectivity: 0.45, classification: 6 },
  { name: 'door', color: [140, 95, 60], variation: 0.08, reflectivity: 0.5, classification: 6 },
  { name: 'window frame', color: [60, 62, 66], variation: 0.05, reflectivity: 0.3, classification: 6 },
  { name: 'glass', color: [150, 190, 215], variation: 0.05, reflectivity: 0.1, classification: 6 },
  { name: 'column', color: [120, 130, 140], variation: 0.05, reflectivity: 0.6, classification: 6 },
  { name: 'beam', color: [110, 120, 132], variation: 0.05, reflectivity: 0.6, classification: 6 },
  { name: 'stair', color: [170, 168, 160], variation: 0.07, reflectivity: 0.55, classification: 6 },
  { name: 'furniture', color: [176, 128, 80], variation: 0.1, reflectivity: 0.5, classification: 6 },
  { name: 'other', color: [200, 200, 200], variation: 0.05, reflectivity: 0.5, classification: 6 },
]);
export const KIND = Object.freeze(Object.fromEntries(KINDS.map((k, i) => [k.name, i])));

/** The terrain lies this far below the ground floor (its slab shows a little above it). */
export const GROUND_BELOW = 0.15;
/** ... and reaches this far around the building. */
export const GROUND_MARGIN = 25;
/** The flight's underside runs from this far along the run up to this far below the top (building.js stair()). */
const STAIR_UNDERSIDE = 0.3;

/**
 * The building's solids and its ground.
 * @param {ScanTruth} truth
 * @returns {{ solids: Solid[], ground: Ground }}
 */
export function buildingSolids(truth) {
  const D = DIMENSIONS;
  const openings = truth.parameters?.openings !== false;
  /** @type {Solid[]} */
  const solids = [];
  const box = (/** @type {Vec3} */ min, /** @type {Vec3} */ max, /** @type {number} */ kind, /** @type {number} */ product, planes = /** @type {Solid['planes']} */ ([])) => {
    if (max[0] - min[0] > 1e-9 && max[1] - min[1] > 1e-9 && max[2] - min[2] > 1e-9) solids.push({ min, max, planes, kind, product });
  };

  // Doors and windows by storey: they cut the walls they stand in.
  /** @type {Map<number | null, TruthProduct[]>} */
  const fillers = new Map();
  for (const p of truth.products) {
    if (!p.box || (p.type !== 'IfcDoor' && p.type !== 'IfcWindow')) continue;
    const list = fillers.get(p.storey) ?? [];
    list.push(p);
    fillers.set(p.storey, list);
  }

  for (const p of truth.products) {
    const b = p.box;
    if (!b) continue;
    switch (p.type) {
      case 'IfcSpace':
      case 'IfcOpeningElement':
        break; // not drawn, nothing to see
      case 'IfcWall':
      case 'IfcWallStandardCase': {
        const kind = p.material === 'Brick' ? KIND.partition : KIND['exterior wall'];
        const holes = openings ? (fillers.get(p.storey) ?? []).filter((f) => f.box && inside(centre(f.box), b)).map((f) => /** @type {Box} */ (f.box)) : [];
        for (const [min, max] of cutWall(b, holes)) box(min, max, kind, p.id);
        break;
      }
      case 'IfcSlab':
        if (p.name === 'Canopy' || !openings || !hasStairAbove(truth, p)) box(b.min, b.max, KIND.slab, p.id);
        else {
          // The stair's opening, in the slab's storey coordinates (the slab starts half a wall before the grid).
          const h = D.STAIR_HOLE;
          const x0 = b.min[0] + D.WALL / 2, y0 = b.min[1] + D.WALL / 2;
          for (const [min, max] of cutSlab(b, [x0 + h.x0, y0 + h.y0, x0 + h.x1, y0 + h.y1])) box(min, max, KIND.slab, p.id);
        }
        break;
      case 'IfcRoof': {
        const depth = b.max[1] - b.min[1] - 2 * D.ROOF.overhang;
        if (depth > D.ROOF.gableDepth) box(b.min, b.max, KIND.roof, p.id);
        else {
          // A triangle across the depth (ridge along x, at mid-depth) swept along the width.
          const ym = (b.min[1] + b.max[1]) / 2;
          const k = (b.max[2] - b.min[2]) / (ym - b.min[1]);
          const n = Math.hypot(k, 1);
          box(b.min, b.max, KIND.roof, p.id, [
            [0, -k / n, 1 / n, (b.min[2] - k * b.min[1]) / n], // south slope: z <= z0 + k (y - y0)
            [0, k / n, 1 / n, (b.min[2] + k * b.max[1]) / n], // north slope: z <= z0 + k (y1 - y)
          ]);
        }
        break;
      }
      case 'IfcStairFlight': {
        // Steps along +y, across x, each a column from the floor (or the sloping underside) to its tread.
        const st = D.STAIR;
        const riser = D.STOREY / st.risers;
        const run = (st.risers - 1) * st.tread;
        const m = (D.STOREY - STAIR_UNDERSIDE) / (run - STAIR_UNDERSIDE);
        const n = Math.hypot(m, 1);
        const [x0, y0, z0] = b.min;
        /** @type {[number, number, number, number]} z >= z0 + m (y - y0 - 0.3), i.e. m y - z <= m (y0 + 0.3) - z0 */
        const underside = [0, m / n, -1 / n, (m * (y0 + STAIR_UNDERSIDE) - z0) / n];
        for (let k = 0; k < st.risers - 1; k++) {
          const top = z0 + (k + 1) * riser;
          const ya = y0 + k * st.tread, yb = y0 + (k + 1) * st.tread;
          box([x0, ya, z0], [x0 + st.width, yb, top], KIND.stair, p.id, [underside]);
        }
        break;
      }
      case 'IfcWindow': {
        if (!openings) break; // inside an uncut wall: never seen
        const t = b.max[0] - b.min[0] < b.max[1] - b.min[1] ? 0 : 1; // across the wall
        const a = 1 - t; // along it
        const f = D.WINDOW.frame;
        const mid = (b.min[t] + b.max[t]) / 2;
        const piece = (/** @type {number} */ a0, /** @type {number} */ a1, /** @type {number} */ z0, /** @type {number} */ z1, /** @type {number} */ t0, /** @type {number} */ t1, /** @type {number} */ kind) => {
          /** @type {Vec3} */ const min = [0, 0, z0];
          /** @type {Vec3} */ const max = [0, 0, z1];
          min[a] = a0; max[a] = a1; min[t] = t0; max[t] = t1;
          box(min, max, kind, p.id);
        };
        const [a0, a1, z0, z1, t0, t1] = [b.min[a], b.max[a], b.min[2], b.max[2], b.min[t], b.max[t]];
        piece(a0, a1, z0, z0 + f, t0, t1, KIND['window frame']);
        piece(a0, a1, z1 - f, z1, t0, t1, KIND['window frame']);
        piece(a0, a0 + f, z0 + f, z1 - f, t0, t1, KIND['window frame']);
        piece(a1 - f, a1, z0 + f, z1 - f, t0, t1, KIND['window frame']);
        piece(a0 + f, a1 - f, z0 + f, z1 - f, mid - 0.01, mid + 0.01, KIND.glass);
        break;
      }
      case 'IfcDoor':
        if (openings) box(b.min, b.max, KIND.door, p.id);
        break;
      case 'IfcFurniture':
      case 'IfcFurnishingElement': {
        const t = D.TABLE;
        const cx = (b.min[0] + b.max[0]) / 2, cy = (b.min[1] + b.max[1]) / 2, z0 = b.min[2];
        box([cx - t.width / 2, cy - t.depth / 2, z0 + t.height], [cx + t.width / 2, cy + t.depth / 2, z0 + t.height + t.top], KIND.furniture, p.id);
        for (const [sx, sy] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
          const lx = cx + sx * t.legX, ly = cy + sy * t.legY;
          box([lx - t.leg / 2, ly - t.leg / 2, z0], [lx + t.leg / 2, ly + t.leg / 2, z0 + t.height], KIND.furniture, p.id);
        }
        break;
      }
      case 'IfcColumn':
        box(b.min, b.max, KIND.column, p.id);
        break;
      case 'IfcBeam':
        box(b.min, b.max, KIND.beam, p.id);
        break;
      default:
        box(b.min, b.max, KIND.other, p.id);
    }
  }

  const around = truth.box ?? { min: [0, 0, 0], max: [0, 0, 0] };
  const floor = truth.site?.origin?.[2] ?? 0;
  return {
    solids,
    ground: {
      z: floor - GROUND_BELOW,
      min: [around.min[0] - GROUND_MARGIN, around.min[1] - GROUND_MARGIN],
      max: [around.max[0] + GROUND_MARGIN, around.max[1] + GROUND_MARGIN],
    },
  };
}

/** Slabs above the ground floor have the stair's opening (building.js slab()). */
function hasStairAbove(/** @type {ScanTruth} */ truth, /** @type {TruthProduct} */ slab) {
  const floor = truth.site?.origin?.[2] ?? 0;
  return slab.box !== null && slab.box.max[2] > floor + 1e-6;
}

/**
 * A wall's box less the openings of the doors and windows in it, as boxes: full-height
 * pieces between openings, and a piece under and over each.
 * @param {Box} wall
 * @param {Box[]} holes the fillers' boxes (an opening spans the filler along the wall and in height)
 * @returns {[Vec3, Vec3][]}
 */
export function cutWall(wall, holes) {
  const a = wall.max[0] - wall.min[0] >= wall.max[1] - wall.min[1] ? 0 : 1;
  const sorted = [...holes].sort((p, q) => p.min[a] - q.min[a]);
  /** @type {[Vec3, Vec3][]} */
  const out = [];
  const piece = (/** @type {number} */ a0, /** @type {number} */ a1, /** @type {number} */ z0, /** @type {number} */ z1) => {
    if (a1 - a0 <= 1e-9 || z1 - z0 <= 1e-9) return;
    const min = /** @type {Vec3} */ ([...wall.min]);
    const max = /** @type {Vec3} */ ([...wall.max]);
    min[a] = a0; max[a] = a1; min[2] = z0; max[2] = z1;
    out.push([min, max]);
  };
  let at = wall.min[a];
  for (const h of sorted) {
    piece(at, h.min[a], wall.min[2], wall.max[2]);
    piece(h.min[a], h.max[a], wall.min[2], h.min[2]);
    piece(h.min[a], h.max[a], h.max[2], wall.max[2]);
    at = h.max[a];
  }
  piece(at, wall.max[a], wall.min[2], wall.max[2]);
  return out;
}

/**
 * A slab's box less a rectangular hole through it, as four boxes.
 * @param {Box} slab
 * @param {[number, number, number, number]} hole x0, y0, x1, y1
 * @returns {[Vec3, Vec3][]}
 */
export function cutSlab(slab, [x0, y0, x1, y1]) {
  const [z0, z1] = [slab.min[2], slab.max[2]];
  /** @type {[Vec3, Vec3][]} */
  const pieces = [
    [[slab.min[0], slab.min[1], z0], [slab.max[0], y0, z1]],
    [[slab.min[0], y1, z0], [slab.max[0], slab.max[1], z1]],
    [[slab.min[0], y0, z0], [x0, y1, z1]],
    [[x1, y0, z0], [slab.max[0], y1, z1]],
  ];
  return pieces.filter(([min, max]) => max[0] - min[0] > 1e-9 && max[1] - min[1] > 1e-9);
}

const centre = (/** @type {Box} */ b) => /** @type {Vec3} */ ([(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2]);
const inside = (/** @type {Vec3} */ p, /** @type {Box} */ b) => p.every((v, k) => v > b.min[k] && v < b.max[k]);
