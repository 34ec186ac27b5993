// @ts-check
/**
 * The named sample buildings the tests, the demo and the benchmarks use. A name is a
 * file name without `.ifc`: `house`, `house-ifc2x3`, ..., and `office-<size>` for a
 * building of about that many products (`office-2k`, `office-20k`, `office-200k`).
 */
import { layoutFor } from './building.js';

/** @typedef {import('./building.js').BuildingOptions} BuildingOptions */

/** @type {Record<string, { description: string, options: BuildingOptions }>} */
export const VARIANTS = {
  house: {
    description: 'IFC4 in metres: three storeys of 3 x 2 rooms',
    options: { name: 'Sample house' },
  },
  cabin: {
    description: 'IFC4 in metres: one storey, one room (the smallest building with every part)',
    options: { name: 'Sample cabin', storeys: 1, roomsX: 1, roomsY: 1 },
  },
  'house-ifc2x3': {
    description: 'IFC2X3 in millimetres, angles in degrees',
    options: { name: 'Sample house IFC2X3', schema: 'IFC2X3', units: 'mm', angles: 'degree' },
  },
  'house-ifc4x3': {
    description: 'IFC4X3 in metres',
    options: { name: 'Sample house IFC4X3', schema: 'IFC4X3' },
  },
  'house-georeferenced': {
    description: 'IFC4, the site 2,683,000 / 1,247,000 m from the origin (EPSG:2056), with an IfcMapConversion',
    options: { name: 'Sample house georeferenced', georeferenced: true },
  },
};

/**
 * Named samples the demo's catalogue leaves out (it lists VARIANTS in order, and a model's
 * objectIdBase is its place there), served and cached like the others.
 * @type {Record<string, { description: string, options: BuildingOptions }>}
 */
export const MORE_VARIANTS = {
  'house-utm': {
    description: 'IFC4, the site at UTM 512,300 E / 5,403,800 N (EPSG:32632), with an IfcMapConversion: lines up with its scan',
    options: { name: 'Sample house UTM', georeferenced: { eastings: 512300, northings: 5403800, height: 245, crs: 'EPSG:32632', crsName: 'WGS 84 / UTM zone 32N' } },
  },
};

/** Benchmark buildings: walls are not cut (web-ifc's booleans would cost every viewer alike and hide the viewers' own costs). */
const OFFICE = /^office-(\d+(?:\.\d+)?)(k|m)?$/i;

/** The generator options of a named sample, or null for an unknown name. */
export function sampleOptions(/** @type {string} */ name) {
  const known = VARIANTS[name] ?? MORE_VARIANTS[name];
  if (known) return known.options;
  const office = OFFICE.exec(name);
  if (!office) return null;
  const products = Math.round(Number(office[1]) * (office[2] ? (office[2].toLowerCase() === 'k' ? 1e3 : 1e6) : 1));
  if (!(products >= 10 && products <= 5e6)) return null;
  return { name: `Sample office ${office[1]}${office[2] ?? ''}`, openings: false, ...layoutFor(products) };
}

/** Every name `sampleOptions` knows without a size, for listings. */
export function sampleNames() {
  return [...Object.keys(VARIANTS), ...Object.keys(MORE_VARIANTS)];
}
