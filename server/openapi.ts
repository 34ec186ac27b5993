import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.js';
import { ROOT, readSettings } from './config.js';
import type { Context } from './api/context.js';

/**
 * `npm run openapi`: writes the OpenAPI description the server serves at /openapi.json to
 * docs/openapi.json, for readers of the repository. It is generated from the routes'
 * schemas; no request is answered, so the app gets no storage.
 */
export async function openApiDocument(): Promise<unknown> {
  const app = await buildApp({ oauth: readSettings({}).oauth } as Context);
  await app.ready();
  const document = app.swagger();
  await app.close();
  return document;
}

export const OPENAPI_FILE = path.join(ROOT, 'docs/openapi.json');

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
  process.stdout.write(`written ${path.relative(process.cwd(), OPENAPI_FILE)}\n`);
}
