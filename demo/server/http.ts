import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest, notFound, unauthorized as platformUnauthorized } from '../../server/services/errors.js';

/**
 * JSON answers and errors of the demo backend. Errors are the platform's (server/services/
 * errors.ts): the v2 API's code, code name and message (seed 002, "Errors") as
 * `{"error": {"code", "name", "message"}}`.
 */
export { ApiError, badRequest };

/** A connect-style middleware, as vite's dev and preview servers take them. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export const projectNotFound = (project: string) => notFound('Project', project);
export const modelNotFound = (model: string) => notFound('Model', model);
export const unauthorized = () => platformUnauthorized('Token expired or unknown');
export const methodNotAllowed = (method: string, allowed: string) =>
  new ApiError(405, 405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed here; use ${allowed}`);

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError, headers: Record<string, string> = {}): void {
  sendJson(res, error.status, { error: { code: error.code, name: error.codeName, message: error.message } }, headers);
}

const MAX_BODY_BYTES = 64 * 1024;

/** The request's JSON body; undefined when there is none. Malformed JSON is a 400. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req) {
    length += (chunk as Buffer).length;
    if (length > MAX_BODY_BYTES) throw badRequest(`Request body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Failed to parse the request body as JSON');
  }
}

/**
 * The origin the client used, for absolute URLs like the platform's
 * (`{base_url}/v2/...`). Falls back to '' (root-relative URLs) when the Host header
 * is missing or odd.
 */
export function requestOrigin(req: IncomingMessage): string {
  const host = req.headers.host;
  if (!host || !/^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return '';
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim();
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = forwarded === 'https' || forwarded === 'http' ? forwarded : encrypted ? 'https' : 'http';
  return `${protocol}://${host}`;
}
