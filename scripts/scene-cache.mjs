// Scenes and plans of IFC files for the demo backend (formats/scene.ts, formats/plans.ts),
// made by `npm run scene -- --plans` in a child process (the caller keeps serving while a
// big model converts) and cached until the converters' source changes.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'bim-scenes');
const run = promisify(execFile);
const converting = new Map();
let hash;

/** A hash of the converters' source (src/core/ifc, src/core/plan, src/core/formats): files made by other code are stale. */
function converterHash() {
  if (hash) return hash;
  const digest = createHash('sha256');
  for (const dir of ['src/core/ifc', 'src/core/plan', 'src/core/formats']) {
    for (const file of readdirSync(path.join(ROOT, dir)).sort()) digest.update(file).update(readFileSync(path.join(ROOT, dir, file)));
  }
  hash = digest.digest('hex').slice(0, 12);
  return hash;
}

/**
 * The paths of the scene and plans of an IFC file, converting it on first use (one
 * conversion at a time per file). Rejects with the converter's message when the file
 * does not convert.
 * @param {string} ifc
 * @returns {Promise<{ scene: string, plans: string }>}
 */
export function processedOf(ifc) {
  const { size, mtimeMs } = statSync(ifc);
  const base = path.join(CACHE, converterHash(), `${path.basename(ifc).replace(/\.ifc$/i, '')}-${size}-${Math.round(mtimeMs)}`);
  let files = converting.get(base);
  if (!files) {
    const out = { scene: `${base}.scene`, plans: `${base}.plans` };
    files = existsSync(out.scene) && existsSync(out.plans) ? Promise.resolve(out) : convert(ifc, out);
    converting.set(base, files);
    files.catch(() => converting.delete(base));
  }
  return files;
}

async function convert(ifc, out) {
  const folder = path.dirname(out.scene);
  if (!existsSync(folder) && existsSync(CACHE)) {
    // files of an older converter are stale for good
    for (const old of readdirSync(CACHE)) rmSync(path.join(CACHE, old), { recursive: true, force: true });
  }
  mkdirSync(folder, { recursive: true });
  const part = { scene: `${out.scene}.${process.pid}.part`, plans: `${out.plans}.${process.pid}.part` };
  try {
    await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/ifc-to-scene.ts'), ifc, part.scene, '--plans', part.plans], { cwd: ROOT, maxBuffer: 1 << 20 });
  } catch (error) {
    throw new Error(String(error.stderr || error.message).trim());
  }
  renameSync(part.scene, out.scene);
  renameSync(part.plans, out.plans);
  return out;
}
