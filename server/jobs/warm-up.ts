import { devNull } from 'node:os';
import { buildingText } from '../../samples/building.js';
import { sampleOptions } from '../../samples/variants.js';
import { readIfc } from './read-ifc.js';

/**
 * Readings of the generated house a reader thread makes before its first file. A thread's
 * first file ran code not yet optimised: Duplex took 860 ms in fresh threads, 500 after
 * one house, 350 after three (its third reading of itself: 310); three take about 0.85 s.
 */
export const WARM_UP_READS = 3;

/** Makes this thread's reading code hot: the house read whole, products and files, WARM_UP_READS times, its output thrown away. */
export async function warmUp(): Promise<number> {
  const house = new TextEncoder().encode(buildingText(sampleOptions('house') ?? undefined).text);
  for (let i = 0; i < WARM_UP_READS; i++) await readIfc(house, 2 ** 32, async () => {}, { scene: devNull, plans: devNull });
  return WARM_UP_READS;
}
