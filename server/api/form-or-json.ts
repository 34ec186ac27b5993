import type { FastifyRequest } from 'fastify';

/**
 * A body labelled application/x-www-form-urlencoded: JSON when it is a JSON object (seed
 * 000's write bodies are), key/value pairs otherwise (OAuth's token request).
 */
export function parseFormOrJson(_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void): void {
  const text = body.toString();
  if (/^\s*\{/.test(text)) {
    try {
      return done(null, JSON.parse(text));
    } catch {
      return done(Object.assign(new Error('The body looks like JSON but does not parse'), { statusCode: 400 }));
    }
  }
  done(null, Object.fromEntries(new URLSearchParams(text)));
}
