// Scenes of IFC files for the demo backend and the benchmarks (formats/scene.ts), made by
// `npm run scene` in a child process (the caller keeps serving while a big model
// converts) and cached until the converter's source changes.
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

/** A hash of the converter's source (src/core/ifc and src/core/formats): scenes made by other code are stale. */
function converterHash() {
  if (hash) return hash;
  const digest = createHash('sha256');
  for (const dir of ['src/core/ifc', 'src/core/formats']) {
    for (const file of readdirSync(path.join(ROOT, dir)).sort()) digest.update(file).update(readFileSync(path.join(ROOT, dir, file)));
  }
  hash = digest.digest('hex').slice(0, 12);
  return hash;
}

/**
 * The path of the scene of an IFC file, converting it on first use (one conversion at a
 * time per file). Rejects with the converter's message when the file does not convert.
 * @param {string} ifc
 * @returns {Promise<string>}
 */
export function sceneOf(ifc) {
  const { size, mtimeMs } = statSync(ifc);
  const name = `${path.basename(ifc).replace(/\.ifc$/i, '')}-${size}-${Math.round(mtimeMs)}.scene`;
  const out = path.join(CACHE, converterHash(), name);
  let scene = converting.get(out);
  if (!scene) {
    scene = existsSync(out) ? Promise.resolve(out) : convert(ifc, out);
    converting.set(out, scene);
    scene.catch(() => converting.delete(out));
  }
  return scene;
}

async function convert(ifc, out) {
  if (!existsSync(path.dirname(out)) && existsSync(CACHE)) {
    // scenes of an older converter are stale for good
    for (const old of readdirSync(CACHE)) if (old !== path.basename(path.dirname(out))) rmSync(path.join(CACHE, old), { recursive: true, force: true });
  }
  mkdirSync(path.dirname(out), { recursive: true });
  const part = `${out}.${process.pid}.part`;
  try {
    await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/ifc-to-scene.ts'), ifc, part], { cwd: ROOT, maxBuffer: 1 << 20 });
  } catch (error) {
    throw new Error(String(error.stderr || error.message).trim());
  }
  renameSync(part, out);
  return out;
}
