// Where a soak part leaves its figures: bench/results/soak/<part>.json, read by
// bench/soak.mjs and quoted in README's "Reliability". Written only under SOAK=1, so
// `npm test` leaves the committed figures alone.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../results/soak');

/** True when `npm run soak` runs the part: full corpora, more runs, longer. */
export const soaking = () => process.env.SOAK === '1';

/** Writes the part's figures (plain JSON values) with the date; does nothing outside a soak. */
export function writeSoakFigures(part, figures) {
  if (!soaking()) return null;
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${part}.json`);
  writeFileSync(file, `${JSON.stringify({ part, date: new Date().toISOString(), figures }, null, 2)}\n`);
  return file;
}
