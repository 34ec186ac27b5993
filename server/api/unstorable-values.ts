import type { FastifyInstance } from 'fastify';
import { badRequest } from '../services/errors.js';

/**
 * Values no database column can keep, refused before validation with a 400 naming where
 * they were (each was a 500 when PostgreSQL refused the query; found by the request fuzz):
 * - a NUL character or a lone surrogate (`"\ud800"` in JSON is not Unicode) in any text
 *   or key: PostgreSQL's text and jsonb cannot hold one;
 * - a number that overflows to Infinity (`1e400`), which the validator's coercion let
 *   through as an integer within its maximum.
 * Path parameters, the query and JSON bodies are looked through, however deep.
 */
export function installUnstorableValueCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
      const problem = unstorableIn(value, part, part !== 'body');
      if (problem) throw badRequest(problem);
    }
  });
}

const UNKEPT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
const unkept = (at: string) => `${at} holds a NUL character (\\u0000) or a lone surrogate (\\ud800-\\udfff), which no text may`;
const infinite = (at: string) => `${at} is a number too large to be one (it overflows to Infinity)`;

/**
 * What is wrong where in `value`, or undefined. `text`: strings are numbers to be (the path
 * and the query, before coercion). Iterative: a body may nest 100,000 deep.
 */
function unstorableIn(value: unknown, root: string, text: boolean): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [node, at] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return infinite(at);
    } else if (typeof node === 'string') {
      if (UNKEPT.test(node)) return unkept(at);
      if (text && NUMERIC.test(node) && !Number.isFinite(Number(node))) return infinite(at);
    } else if (node && typeof node === 'object' && !Buffer.isBuffer(node)) {
      for (const [key, inner] of Object.entries(node)) {
        if (UNKEPT.test(key)) return unkept(`${at} (a key)`);
        stack.push([inner, `${at}/${key}`]);
      }
    }
  }
  return undefined;
}
