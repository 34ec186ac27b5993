// Whether dist/ is older than what it is built from: shared by `npm start`, `npm test` and
// the console's test (server/test/console/console.test.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(ROOT, 'dist/viewer3d.js');
const CONSOLE = path.join(ROOT, 'dist/console/index.html');

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

/** Why `output` needs building from `inputs` (files or folders), or undefined when it is current. */
function staleReason(output, inputs) {
  if (!existsSync(output)) return `${path.relative(ROOT, output)} is missing`;
  const built = statSync(output).mtimeMs;
  for (const input of inputs.map((i) => path.join(ROOT, i))) {
    const mtime = existsSync(input) && statSync(input).isDirectory() ? newestMtime(input) : existsSync(input) ? statSync(input).mtimeMs : 0;
    if (mtime > built) return `${path.relative(ROOT, input)} changed since the last build`;
  }
  return undefined;
}

/** Why the console (dist/console, from demo/console, demo/file-drop.ts and src/) needs building, or undefined. */
export function consoleIsStale() {
  return staleReason(CONSOLE, ['demo/console', 'demo/file-drop.ts', 'src', 'scripts/build.mjs']);
}

/** Why dist/ (the bundles, or the console) needs building, or undefined when it is current. */
export function bundleIsStale() {
  return staleReason(BUNDLE, ['src', 'scripts/build.mjs']) ?? consoleIsStale();
}

/** Why dist/types (the declarations apps type-check against) needs building, or undefined. */
export function typesAreStale() {
  return staleReason(path.join(ROOT, 'dist/types/index.d.ts'), ['src', 'tsconfig.build.json']);
}
