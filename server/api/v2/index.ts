import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../auth.js';
import type { Context } from '../context.js';
import { viewerTokenRoutes } from './viewer-tokens.js';
import { clientImageRoutes, clientRoutes } from './clients.js';
import { libraryRoutes } from './libraries.js';
import { collectionRoutes } from './collections.js';
import { sharedCollectionRoutes } from './shared-collections.js';
import { customFieldRoutes } from './custom-fields.js';
import { topicBoardRoutes } from './topic-boards.js';

/**
 * The v2 API (seed 002) under `{base_url}/v2`: the viewers' tokens and their data URLs
 * (which carry their own token), then the resources that need a Bearer access token,
 * each a module of its own.
 */
export async function v2Routes(app: FastifyInstance, ctx: Context) {
  await app.register(async (scope) => viewerTokenRoutes(scope, ctx));
  await app.register(async (scope) => clientImageRoutes(scope, ctx));
  // A collection's public link: the link is the credential, no Bearer token.
  await app.register(async (scope) => sharedCollectionRoutes(scope, ctx));
  await app.register(async (scope) => {
    requireBearer(scope, ctx);
    // Each v2 resource registers here: await scope.register(async (s) => fooRoutes(s, ctx));
    await scope.register(async (s) => clientRoutes(s, ctx));
    await scope.register(async (s) => libraryRoutes(s, ctx));
    await scope.register(async (s) => collectionRoutes(s, ctx));
    await scope.register(async (s) => customFieldRoutes(s, ctx));
    await scope.register(async (s) => topicBoardRoutes(s, ctx));
  });
}
