// Scenes and plans of IFC files for the demo backend (formats/scene.ts, formats/plans.ts),
// made by `npm run scene -- --plans` in a child process (the caller keeps serving while a
// big model converts) and cached until the converters' source changes (conversion-cache.mjs).
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, convertOnce, sourceHash } from './conversion-cache.mjs';

const CACHE = path.join(ROOT, 'node_modules', '.cache', 'bim-scenes');
const run = promisify(execFile);
let hash;

/**
 * The paths of the scene and plans of an IFC file, converting it on first use (one
 * conversion at a time per file). Rejects with the converter's message when the file
 * does not convert.
 * @param {string} ifc
 * @returns {Promise<{ scene: string, plans: string }>}
 */
export async function processedOf(ifc) {
  const { size, mtimeMs } = statSync(ifc);
  // The converters' source: src/core/ifc, src/core/plan, src/core/formats.
  hash ??= sourceHash(['src/core/ifc', 'src/core/plan', 'src/core/formats']);
  const base = path.join(CACHE, hash, `${path.basename(ifc).replace(/\.ifc$/i, '')}-${size}-${Math.round(mtimeMs)}`);
  const [scene, plans] = await convertOnce(CACHE, [`${base}.scene`, `${base}.plans`], async ([scenePart, plansPart]) => {
    try {
      await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/ifc-to-scene.ts'), ifc, scenePart, '--plans', plansPart], { cwd: ROOT, maxBuffer: 1 << 20 });
    } catch (error) {
      throw new Error(String(error.stderr || error.message).trim());
    }
  });
  return { scene, plans };
}
