// A test route of the test server: /test-files/oversized.ifc announces a 3 GB IFC file
// (Content-Length) and sends only its first line, then waits until the client goes away.
// The viewer must refuse it as "too large" from the header, before any download.
import { Readable } from 'node:stream';

export const OVERSIZED_PATH = '/test-files/oversized.ifc';
export const OVERSIZED_BYTES = 3e9;

/** Koa middleware answering OVERSIZED_PATH. */
export async function oversizedRoute(ctx, next) {
  if (ctx.path !== OVERSIZED_PATH) return next();
  const body = new Readable({ read() {} });
  body.push('ISO-10303-21;\n');
  ctx.req.on('close', () => body.destroy());
  ctx.set('Content-Type', 'application/x-step');
  ctx.set('Content-Length', String(OVERSIZED_BYTES));
  ctx.body = body;
}
