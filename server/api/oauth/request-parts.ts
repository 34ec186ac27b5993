import type { FastifyRequest } from 'fastify';

/** The sign-in page's session cookie (services/sessions.ts). */
export const SESSION_COOKIE = 'platform_session';

/** A client's id and secret, from HTTP Basic (form-encoded, RFC 6749 2.3.1) or the body; undefined when neither names one. */
export function clientCredentials(header: string | undefined, body: Record<string, unknown>): { id: string; secret?: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (match) {
    const decoded = Buffer.from(match[1], 'base64').toString();
    const colon = decoded.indexOf(':');
    try {
      return colon < 0 ? undefined : { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
    } catch {
      return undefined; // not form-encoded (a lone %)
    }
  }
  if (typeof body.client_id !== 'string' || body.client_id === '') return undefined;
  return { id: body.client_id, secret: typeof body.client_secret === 'string' ? body.client_secret : undefined };
}

/** A cookie of the request, by name. */
export function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
