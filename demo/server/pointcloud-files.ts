import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { bimPointcloudsFolder, bimPointcloudsSetting } from '../../scripts/bim-models.mjs';
import { pointcloudOf } from '../../scripts/pointcloud-cache.mjs';
import { sampleScan } from '../../samples/files.js';
import { parseScanName } from '../../samples/scan-files.js';
import { parseRange } from '../../server/api/ranges.js';
import { ApiError, sendError, sendJson, type Middleware } from './http.js';

const PREFIX = '/pointclouds/';
const SAMPLES = '/pointclouds/samples/';
const SUFFIX = '.pointcloud';

/**
 * Real scans (LAS, LAZ, E57 from the BIM_POINTCLOUDS folder) as point cloud files:
 * `/pointclouds/<scan file>.pointcloud`, converted on first request (scripts/pointcloud-cache.mjs)
 * and served with HTTP range requests as the platform serves them. A scan that does not
 * convert is a 422 with the reader's message. `/pointclouds/` lists the scans and their
 * MANIFEST.tsv rows (`{scans: [{file, size, contents}]}`) for the tests. The sample
 * buildings' scans (samples/scan-files.js names: `house-utm.scan-200k.las`) are at
 * `/pointclouds/samples/<scan>.pointcloud`, generated and converted on first request.
 */
export function pointcloudFiles(): Middleware {
  return (req, res, next) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (pathname === PREFIX && req.method === 'GET') return listScans(res);
    if (!pathname.startsWith(PREFIX) || !pathname.endsWith(SUFFIX)) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (pathname.startsWith(SAMPLES)) return sampleCloud(req.method, req.headers.range, pathname, res);
    const folder: string | null = bimPointcloudsFolder();
    if (!folder) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No scans here: the BIM_POINTCLOUDS folder (${bimPointcloudsSetting()}) does not exist`));
    const scan = resolve(folder, '.' + sep + pathname.slice(PREFIX.length, -SUFFIX.length));
    let found = false;
    try {
      found = scan.startsWith(resolve(folder) + sep) && statSync(scan).isFile();
    } catch {
      found = false;
    }
    if (!found) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `${pathname}: no such scan in the BIM_POINTCLOUDS folder`));
    (pointcloudOf(scan) as Promise<string>).then(
      (file) => sendRanged(req.method!, req.headers.range, file, res),
      (error: Error) => sendError(res, new ApiError(422, 422, 'UNPROCESSABLE', `${pathname}: ${error.message}`)),
    );
  };
}

function sampleCloud(method: string, range: string | undefined, pathname: string, res: ServerResponse) {
  const name = pathname.slice(SAMPLES.length, -SUFFIX.length);
  if (!parseScanName(name)) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No sample scan called ${name} (<building>.scan[-<size>].las, .laz or .e57)`));
  (sampleScan(name) as Promise<string>)
    .then((scan) => pointcloudOf(scan) as Promise<string>)
    .then(
      (file) => sendRanged(method, range, file, res),
      (error: Error) => sendError(res, new ApiError(422, 422, 'UNPROCESSABLE', `${pathname}: ${error.message}`)),
    );
}

function listScans(res: ServerResponse) {
  const folder: string | null = bimPointcloudsFolder();
  if (!folder) return sendError(res, new ApiError(404, 20, 'NOT_FOUND', `No scans here: the BIM_POINTCLOUDS folder (${bimPointcloudsSetting()}) does not exist`));
  const contents = new Map<string, string>();
  try {
    for (const line of readFileSync(join(folder, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1)) {
      const cells = line.split('\t');
      if (cells.length >= 5) contents.set(cells[0], cells[4]);
    }
  } catch {
    // no MANIFEST: the files still list
  }
  const scans = readdirSync(folder)
    .filter((f) => /\.(las|laz|e57)$/i.test(f))
    .sort()
    .map((file) => ({ file, size: statSync(join(folder, file)).size, contents: contents.get(file) ?? '' }));
  sendJson(res, 200, { scans });
}

/** A file, whole (200) or one range of it (206 with Content-Range; 416 past its end), as the platform's parseRange reads the header. */
export function sendRanged(method: string, header: string | undefined, file: string, res: ServerResponse) {
  const size = statSync(file).size;
  const headers = { 'Content-Type': 'application/vnd.platform.pointcloud', 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-cache' };
  const range = parseRange(header, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` });
    return void res.end();
  }
  if (range) res.writeHead(206, { ...headers, 'Content-Length': range.end - range.start + 1, 'Content-Range': `bytes ${range.start}-${range.end}/${size}` });
  else res.writeHead(200, { ...headers, 'Content-Length': size });
  if (method === 'HEAD') return void res.end();
  createReadStream(file, range ?? {}).on('error', (e) => res.destroy(e)).pipe(res);
}
