// Whether dist/ is older than what it is built from: shared by `npm start` and `npm test`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(ROOT, 'dist/viewer3d.js');

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Why the bundles need building, or undefined when they are current. */
export function bundleIsStale() {
  if (!existsSync(BUNDLE)) return 'dist/viewer3d.js is missing';
  const built = statSync(BUNDLE).mtimeMs;
  for (const input of [path.join(ROOT, 'src'), path.join(ROOT, 'scripts/build.mjs')]) {
    const mtime = existsSync(input) && statSync(input).isDirectory() ? newestMtime(input) : existsSync(input) ? statSync(input).mtimeMs : 0;
    if (mtime > built) return `${path.relative(ROOT, input)} changed since the last build`;
  }
  return undefined;
}
