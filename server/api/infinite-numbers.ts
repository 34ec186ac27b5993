import type { FastifyInstance } from 'fastify';
import { badRequest } from '../services/errors.js';

/**
 * No number may be infinite: `1e400` in a query (or a JSON body) is Infinity, which the
 * validator's coercion let through as an integer within its maximum, and PostgreSQL then
 * refused (`invalid input syntax for type integer: "Infinity"`, a 500). Path parameters,
 * the query and JSON bodies are looked through before validation; one is a 400 naming where.
 */
export function installInfiniteNumberCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
      const at = infiniteIn(value, part, part !== 'body');
      if (at) throw badRequest(`${at} is a number too large to be one (it overflows to Infinity)`);
    }
  });
}

const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/** Where in `value` a number (or, in text parts, a numeric string) is infinite. Iterative, like the NUL check. */
function infiniteIn(value: unknown, root: string, text: boolean): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [node, at] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return at;
    } else if (typeof node === 'string') {
      if (text && NUMERIC.test(node) && !Number.isFinite(Number(node))) return at;
    } else if (node && typeof node === 'object' && !Buffer.isBuffer(node)) {
      for (const [key, inner] of Object.entries(node)) stack.push([inner, `${at}/${key}`]);
    }
  }
  return undefined;
}
