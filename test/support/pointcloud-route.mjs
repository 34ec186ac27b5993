// A test route of the test server: pages PUT a point cloud file they generated to
// /test-files/pointclouds/<name> and read it back with HTTP range requests (206 with
// Content-Range, 416 past the end), or, under /test-files/pointclouds-whole/<name>, as a
// server that ignores ranges and answers 200 with the whole file. Kept in memory.

export const POINTCLOUD_ROUTE = '/test-files/pointclouds/';
export const WHOLE_ROUTE = '/test-files/pointclouds-whole/';

const files = new Map();

/** Koa middleware answering POINTCLOUD_ROUTE and WHOLE_ROUTE. */
export async function pointcloudRoute(ctx, next) {
  const ranged = ctx.path.startsWith(POINTCLOUD_ROUTE);
  if (!ranged && !ctx.path.startsWith(WHOLE_ROUTE)) return next();
  const name = ctx.path.slice((ranged ? POINTCLOUD_ROUTE : WHOLE_ROUTE).length);
  if (ctx.method === 'PUT' && ranged) {
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    files.set(name, Buffer.concat(chunks));
    ctx.status = 204;
    return;
  }
  const file = files.get(name);
  if (ctx.method !== 'GET' || !file) {
    ctx.status = 404;
    ctx.body = `${ctx.path}: no such test file`;
    return;
  }
  ctx.set('Content-Type', 'application/vnd.platform.pointcloud');
  ctx.set('Cache-Control', 'no-store');
  const range = /^bytes=(\d+)-(\d*)$/.exec(ctx.get('Range'));
  if (!ranged || !range) {
    ctx.body = file;
    return;
  }
  ctx.set('Accept-Ranges', 'bytes');
  const start = Number(range[1]);
  const end = Math.min(range[2] ? Number(range[2]) : file.length - 1, file.length - 1);
  if (start >= file.length || end < start) {
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${file.length}`);
    ctx.body = '';
    return;
  }
  ctx.status = 206;
  ctx.set('Content-Range', `bytes ${start}-${end}/${file.length}`);
  ctx.body = file.subarray(start, end + 1);
}
