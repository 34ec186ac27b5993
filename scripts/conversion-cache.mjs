// Files converted from inputs (scenes and plans of IFC, point clouds of scans) for the demo
// backend, the browser tests and the benchmarks, cached in node_modules/.cache until the
// converter's source changes: scene-cache.mjs and pointcloud-cache.mjs.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A hash of the source files at `paths` (relative to the project; folders walked for .ts,
 * .mjs and .js files): files converted by other code are stale.
 * @param {string[]} paths
 */
export function sourceHash(paths) {
  const digest = createHash('sha256');
  const add = (file) => {
    if (statSync(path.join(ROOT, file)).isDirectory()) {
      for (const entry of readdirSync(path.join(ROOT, file)).sort()) add(path.join(file, entry));
    } else if (/\.(ts|mjs|js)$/.test(file)) {
      digest.update(file).update(readFileSync(path.join(ROOT, file)));
    }
  };
  for (const p of paths) add(p);
  return digest.digest('hex').slice(0, 12);
}

/** Conversions under way, by their first output. */
const running = new Map();

/**
 * `outputs` (files in a folder of `cache` named after the converter's source hash), made by
 * `convert(parts)` into part files that become the outputs once all are written; one
 * conversion at a time per output, none when they exist. The first conversion into a new
 * folder removes the older folders: files of an older converter are stale for good.
 * @param {string} cache
 * @param {string[]} outputs
 * @param {(parts: string[]) => Promise<unknown>} convert
 * @returns {Promise<string[]>}
 */
export function convertOnce(cache, outputs, convert) {
  let done = running.get(outputs[0]);
  if (!done) {
    done = outputs.every((file) => existsSync(file)) ? Promise.resolve(outputs) : make(cache, outputs, convert);
    running.set(outputs[0], done);
    done.catch(() => running.delete(outputs[0]));
  }
  return done;
}

async function make(cache, outputs, convert) {
  const folder = path.dirname(outputs[0]);
  if (!existsSync(folder) && existsSync(cache)) {
    for (const old of readdirSync(cache)) rmSync(path.join(cache, old), { recursive: true, force: true });
  }
  mkdirSync(folder, { recursive: true });
  const parts = outputs.map((file) => `${file}.${process.pid}.part`);
  try {
    await convert(parts);
  } catch (error) {
    for (const part of parts) rmSync(part, { force: true });
    throw error;
  }
  parts.forEach((part, i) => renameSync(part, outputs[i]));
  return outputs;
}
