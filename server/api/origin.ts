import type { FastifyRequest } from 'fastify';

/**
 * The origin the client used, for absolute URLs like the platform's (`{base_url}/v2/...`):
 * PUBLIC_URL when set (a proxy in front), else the request's Host (checked) and protocol.
 */
export function requestOrigin(request: FastifyRequest): string {
  if (process.env.PUBLIC_URL) return process.env.PUBLIC_URL.replace(/\/$/, '');
  const host = request.headers.host ?? '';
  if (!/^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return '';
  return `${request.protocol}://${host}`;
}
