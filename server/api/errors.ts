import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, duplicateAsConflict } from '../services/errors.js';

const NAMES: Record<number, [number, string]> = {
  400: [24, 'BAD_REQUEST'],
  401: [401, 'UNAUTHORIZED'],
  403: [100, 'INSUFFICIENT_PRIVILEGE'],
  404: [20, 'NOT_FOUND'],
  405: [405, 'METHOD_NOT_ALLOWED'],
  409: [409, 'CONFLICT'],
  413: [413, 'PAYLOAD_TOO_LARGE'],
  415: [415, 'UNSUPPORTED_MEDIA_TYPE'],
  503: [503, 'SERVICE_UNAVAILABLE'],
};

/** The one JSON error body of every API: `{"error": {"code", "name", "message"}}` (seed 002's code, name and message). */
export function errorBody(status: number, message: string, code?: number, name?: string) {
  const [defaultCode, defaultName] = NAMES[status] ?? [status, status < 500 ? 'BAD_REQUEST' : 'INTERNAL_ERROR'];
  return { error: { code: code ?? defaultCode, name: name ?? defaultName, message } };
}

/**
 * Errors become that body: a service's ApiError as it says, Fastify's own 4xx (schema
 * validation, malformed JSON, a body over the limit, an unknown media type) with their
 * message, and anything else a 500 that shows no internals. A bad token's 401 carries
 * `WWW-Authenticate` (RFC 6750). `body` writes the JSON (the BCF API adds its own `message`).
 */
export function installErrorHandling(app: FastifyInstance, body: typeof errorBody = errorBody): void {
  app.setErrorHandler((thrown: FastifyError | ApiError, request, reply) => {
    const error = duplicateAsConflict(thrown) as FastifyError | ApiError;
    if (error instanceof ApiError) {
      if (error.status === 401 && !reply.hasHeader('WWW-Authenticate')) reply.header('WWW-Authenticate', 'Bearer realm="platform", error="invalid_token"');
      return reply.status(error.status).send(body(error.status, error.message, error.code, error.codeName));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send(body(status, error.message));
    // The database away (storage/database.ts DatabaseUnavailable): for a moment, worth a retry.
    if (status === 503) return reply.status(503).header('Retry-After', '5').send(body(503, error.message));
    request.log.error(error);
    return reply.status(500).send(body(500, 'Internal error'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(body(404, `No resource ${request.method} ${request.url.split('?')[0]}`));
  });
}
