import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { errorBody } from './errors.js';

/**
 * Requests refused before any route sees them answer with the platform's JSON error body
 * too, saying what was wrong (Fastify's own answers carry `{"error": "Bad Request",
 * "message": "Client Error"}`): a request Node's HTTP parser refuses, a header block over
 * Node's 16 KiB, a URL Fastify cannot decode, a path segment over 100 characters, and
 * (installUrlLimit) a URL over MAX_URL_BYTES.
 */

/** Node's parser refused the request: nothing routed it, so the body also has the BCF API's `message`. */
function clientError(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request line and headers are over 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request did not arrive in time']
        : [400, `The request is not valid HTTP: ${String((error as { reason?: string }).reason ?? error.message).replace(/^Parse Error: /, '')}`];
  const body = JSON.stringify({ message, ...errorBody(status, message) });
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  socket.destroy();
}

/** The router's refusals: a URL that does not decode (400), a path segment over maxParamLength (414). */
function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'A path segment is over 100 characters']
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'The URL does not decode: a % not followed by two hexadecimal digits, or bytes that are not UTF-8']
        : [400, error.message];
  reply.status(status).send(bodyFor(request.url, status, message));
}

const bodyFor = (url: string, status: number, message: string) => (url.startsWith('/bcf/') ? { message, ...errorBody(status, message) } : errorBody(status, message));

/** Fastify's options that route those refusals here. */
export const refusedRequests: Pick<FastifyServerOptions, 'clientErrorHandler' | 'frameworkErrors'> = { clientErrorHandler: clientError, frameworkErrors: frameworkError };

/** 414 for a URL (path and query) over `maxBytes`, before anything else reads it. */
export function installUrlLimit(app: FastifyInstance, maxBytes: number): void {
  app.addHook('onRequest', async (request, reply) => {
    const bytes = Buffer.byteLength(request.url);
    if (bytes <= maxBytes) return;
    const message = `The URL is ${bytes} bytes; at most ${maxBytes} (MAX_URL_BYTES)`;
    return reply.status(414).send(bodyFor(request.url, 414, message));
  });
}
