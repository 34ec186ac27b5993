// Point cloud files (src/core/formats/pointcloud.ts) of scans for the demo backend and the
// browser tests, made by `npm run pointcloud` (scripts/pointcloud.ts) in a child process
// on first request and cached in node_modules/.cache until the converter's source changes.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'bim-pointclouds');
const run = promisify(execFile);
const converting = new Map();
let hash;

/** A hash of the converter's source (server/pointcloud, the format): files of other code are stale. */
function converterHash() {
  if (hash) return hash;
  const digest = createHash('sha256');
  const add = (dir) => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) add(file);
      else if (/\.(ts|mjs|js)$/.test(entry.name)) digest.update(file).update(readFileSync(path.join(ROOT, file)));
    }
  };
  add('server/pointcloud');
  digest.update(readFileSync(path.join(ROOT, 'src/core/formats/pointcloud.ts')));
  hash = digest.digest('hex').slice(0, 12);
  return hash;
}

/**
 * The path of the point cloud file of a scan (LAS, LAZ, E57), converting it on first use
 * (one conversion at a time per file). Rejects with the converter's message when the scan
 * does not convert.
 * @param {string} scan
 * @returns {Promise<string>}
 */
export function pointcloudOf(scan) {
  const { size, mtimeMs } = statSync(scan);
  const out = path.join(CACHE, converterHash(), `${path.basename(scan)}-${size}-${Math.round(mtimeMs)}.pointcloud`);
  let file = converting.get(out);
  if (!file) {
    file = existsSync(out) ? Promise.resolve(out) : convert(scan, out);
    converting.set(out, file);
    file.catch(() => converting.delete(out));
  }
  return file;
}

async function convert(scan, out) {
  const folder = path.dirname(out);
  if (!existsSync(folder) && existsSync(CACHE)) {
    // files of an older converter are stale for good
    for (const old of readdirSync(CACHE)) rmSync(path.join(CACHE, old), { recursive: true, force: true });
  }
  mkdirSync(folder, { recursive: true });
  const part = `${out}.${process.pid}.part`;
  try {
    await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/pointcloud.ts'), scan, part], { cwd: ROOT, maxBuffer: 1 << 20 });
  } catch (error) {
    rmSync(part, { force: true });
    // The CLI's last line says why a scan is refused; a crash says it in its "...Error: " line.
    const lines = String(error.stderr || error.message).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at ') && !l.startsWith('Node.js v'));
    throw new Error(lines.find((l) => /^\w*Error: /.test(l)) ?? lines[lines.length - 1] ?? 'the converter failed');
  }
  renameSync(part, out);
  return out;
}
