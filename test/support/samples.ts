import type { writeBuilding } from '../../samples/building.js';

/**
 * The project's own sample buildings (samples/variants.js), generated and served by the
 * demo backend at /samples/<name>.ifc, each with its truth at /samples/<name>.json:
 * what the file holds, computed as it was written (counts, GlobalIds, names, storeys,
 * spaces and their areas, every product's box). Tests compare against the truth.
 */
export const SAMPLES = {
  /** IFC4, metres: three storeys of 3 x 2 rooms (the everyday test model). */
  house: '/samples/house.ifc',
  /** One storey, one room: the smallest building with every part. */
  cabin: '/samples/cabin.ifc',
  /** IFC2X3 in millimetres, angles in degrees. */
  houseIfc2x3: '/samples/house-ifc2x3.ifc',
  /** IFC4X3. */
  houseIfc4x3: '/samples/house-ifc4x3.ifc',
  /** IFC4, the site 2,683,000 / 1,247,000 m from the origin. */
  houseGeoreferenced: '/samples/house-georeferenced.ifc',
  /** About 2,000 products (walls not cut). */
  office2k: '/samples/office-2k.ifc',
  /** About 20,000 products, 20 MB: long enough to load that work is shared between workers. */
  office20k: '/samples/office-20k.ifc',
} as const;

export type Truth = ReturnType<typeof writeBuilding>;
export type ProductTruth = Truth['products'][number];

const truths = new Map<string, Promise<Truth>>();

/** The truth of a sample, by its IFC URL (fetched once per page). */
export function truthOf(url: string): Promise<Truth> {
  let truth = truths.get(url);
  if (!truth) {
    truth = fetch(url.replace(/\.ifc$/, '.json')).then((res) => {
      if (!res.ok) throw new Error(`${url}: no truth (${res.status})`);
      return res.json() as Promise<Truth>;
    });
    truths.set(url, truth);
  }
  return truth;
}

/**
 * Where the demo backend serves the processed files (`npm run scene`) of a sample or a
 * real model: /samples/x.ifc -> /scenes/samples/x.scene, /models/x.ifc -> /scenes/models/x.scene (.plans likewise).
 */
const processed = (ifcUrl: string, extension: string) => ifcUrl.replace(/^\/(samples|models)\/(.*)\.ifc$/, `/scenes/$1/$2.${extension}`);
export const sceneOf = (ifcUrl: string) => processed(ifcUrl, 'scene');
export const plansOf = (ifcUrl: string) => processed(ifcUrl, 'plans');

/** The objectId of an express id in a model loaded with base `base` (default "0"). */
export function objectIdOf(id: number, base = '0'): string {
  return String(BigInt(base) + BigInt(id));
}

/** The products of some types in a truth. */
export function productsOf(truth: Truth, ...types: string[]): ProductTruth[] {
  return truth.products.filter((p) => types.includes(p.type));
}

/** The object ids (base "0") of the products of some types. */
export function idsOf(truth: Truth, ...types: string[]): string[] {
  return productsOf(truth, ...types).map((p) => objectIdOf(p.id));
}
