import type { FastifyInstance } from 'fastify';

/** Deeper than any body of the APIs (a BCF viewpoint's is 5 levels) by far; PostgreSQL's jsonb fails long before 10,000. */
export const MAX_JSON_DEPTH = 64;

/**
 * JSON bodies nest at most MAX_JSON_DEPTH levels: a deeper one is a 400 saying so before it
 * is parsed. A viewpoint with 10,000 levels under an extra property was stored as jsonb,
 * and PostgreSQL's parser ran out of stack: a 500. Parsing itself is Fastify's own
 * (`__proto__` and `constructor` refused).
 */
export function installJsonDepthLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const depth = depthOf(body as string);
    if (depth > MAX_JSON_DEPTH) return done(Object.assign(new Error(`The JSON body nests ${depth} levels deep; at most ${MAX_JSON_DEPTH}`), { statusCode: 400 }), undefined);
    parse(request, body as string, done);
  });
}

/** The deepest nesting of [ and { outside strings (a scan, no parse: the text may not be JSON at all). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // \ escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
