// Point cloud files (src/core/formats/pointcloud.ts) of scans for the demo backend and the
// browser tests, made by `npm run pointcloud` (scripts/pointcloud.ts) in a child process
// on first request and cached until the converter's source changes (conversion-cache.mjs).
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, convertOnce, sourceHash } from './conversion-cache.mjs';

const CACHE = path.join(ROOT, 'node_modules', '.cache', 'bim-pointclouds');
const run = promisify(execFile);
let hash;

/**
 * The path of the point cloud file of a scan (LAS, LAZ, E57), converting it on first use
 * (one conversion at a time per file). Rejects with the converter's message when the scan
 * does not convert.
 * @param {string} scan
 * @returns {Promise<string>}
 */
export async function pointcloudOf(scan) {
  const { size, mtimeMs } = statSync(scan);
  hash ??= sourceHash(['server/pointcloud', 'src/core/formats/pointcloud.ts']);
  const out = path.join(CACHE, hash, `${path.basename(scan)}-${size}-${Math.round(mtimeMs)}.pointcloud`);
  const [file] = await convertOnce(CACHE, [out], async ([part]) => {
    try {
      await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/pointcloud.ts'), scan, part], { cwd: ROOT, maxBuffer: 1 << 20 });
    } catch (error) {
      // The CLI's last line says why a scan is refused; a crash says it in its "...Error: " line.
      const lines = String(error.stderr || error.message).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at ') && !l.startsWith('Node.js v'));
      throw new Error(lines.find((l) => /^\w*Error: /.test(l)) ?? lines[lines.length - 1] ?? 'the converter failed');
    }
  });
  return file;
}
