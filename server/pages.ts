import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ROOT } from './config.js';

/** Where `npm run build` puts the console (demo/console, built with the viewers' sources). */
export const CONSOLE_DIR = path.join(ROOT, 'dist/console');

/** The console's OAuth client id (public: no secret, PKCE; its callback is this server's /console/). */
export const CONSOLE_CLIENT = 'console';

/**
 * The pages the platform serves besides its APIs: the console at /console/ (and / sends
 * people there). Without a build, /console/ says how to make one.
 */
export async function pages(app: FastifyInstance): Promise<void> {
  for (const from of ['/', '/console']) app.get(from, { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/', 302));
  if (!existsSync(path.join(CONSOLE_DIR, 'index.html'))) {
    app.get('/console/*', { schema: { hide: true } }, (_request, reply) =>
      reply.status(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build` (npm start builds it when needed).'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: CONSOLE_DIR,
    prefix: '/console/',
    index: 'index.html',
    cacheControl: true,
    maxAge: '1h',
    // index.html names the hashed assets of its own build (gone after a rebuild): revalidated every time.
    setHeaders: (reply, file) => {
      if (path.basename(file) === 'index.html') reply.header('Cache-Control', 'no-cache');
    },
  });
}
