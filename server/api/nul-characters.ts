import type { FastifyInstance } from 'fastify';
import { badRequest } from '../services/errors.js';

/**
 * No text the platform keeps may hold a NUL character or a lone surrogate (`"\ud800"` in
 * JSON, not Unicode): PostgreSQL's text and jsonb cannot, and a query carrying one failed as
 * a 500. Path parameters, the query and JSON bodies (values and keys, however deep) are
 * looked through before validation; one is a 400 naming where it was.
 */
export function installNulCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
      const at = nulIn(value, part);
      if (at) throw badRequest(`${at} holds a NUL character (\\u0000) or a lone surrogate (\\ud800-\\udfff), which no text may`);
    }
  });
}

const UNKEPT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Where in `value` a string (or key) holds U+0000, or undefined. Iterative: a body may nest 100,000 deep. */
function nulIn(value: unknown, root: string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [node, at] = stack.pop()!;
    if (typeof node === 'string') {
      if (UNKEPT.test(node)) return at;
    } else if (node && typeof node === 'object' && !Buffer.isBuffer(node)) {
      for (const [key, inner] of Object.entries(node)) {
        if (UNKEPT.test(key)) return `${at} (a key)`;
        stack.push([inner, `${at}/${key}`]);
      }
    }
  }
  return undefined;
}
