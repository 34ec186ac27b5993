import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../storage/blobs.js';
import { errorBody } from './errors.js';

/**
 * HTTP range requests (RFC 9110, section 14) over a blob: what point cloud viewers read a
 * processed file with, node by node. One range per request: `bytes=a-b`, `bytes=a-`
 * (to the end) and `bytes=-n` (the last n bytes); a header this does not take (several
 * ranges, other units, last before first) is ignored, as the RFC allows: the whole file.
 */
export type ByteRange = { start: number; end: number };

/** The range asked for (end included, clamped to the file), `unsatisfiable`, or null for the whole file. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1] === '' ? undefined : Number(match[1]), match[2] === '' ? undefined : Number(match[2])];
  if (first === undefined) {
    // A suffix: the last n bytes (all of a shorter file); none of them is no range at all.
    return last === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - last!), end: size - 1 };
  }
  if (last !== undefined && last < first) return null;
  if (first >= size) return 'unsatisfiable';
  return { start: first, end: Math.min(last ?? size - 1, size - 1) };
}

/**
 * Sends the blob `key` (`size` bytes, of media type `type`): 206 with Content-Range for a
 * range, 416 with the JSON error body for one past the end, else 200 with all of it.
 */
export async function sendRanged(request: FastifyRequest, reply: FastifyReply, blobs: BlobStore, key: string, size: number, type: string) {
  // Viewers on other origins read these headers to know where a part belongs.
  reply.header('Accept-Ranges', 'bytes').header('Access-Control-Expose-Headers', 'Accept-Ranges, Content-Range, Content-Length');
  const range = parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    const message = `The range ${request.headers.range} is not inside the file (${size} bytes)`;
    return reply.status(416).header('Content-Range', `bytes */${size}`).type('application/json').send(errorBody(416, message, 416, 'RANGE_NOT_SATISFIABLE'));
  }
  reply.header('Content-Type', type);
  if (!range) return reply.header('Content-Length', size).send(await blobs.get(key));
  return reply
    .status(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', range.end - range.start + 1)
    .send(await blobs.getRange(key, range.start, range.end));
}
