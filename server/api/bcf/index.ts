import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../auth.js';
import type { Context } from '../context.js';
import { errorBody, installErrorHandling } from '../errors.js';
import { BCF_VERSIONS, type BcfVersion } from '../../services/bcf/versions.js';
import { bcfFileRoutes } from './bcf-files.js';
import { boardRoutes } from './boards.js';
import { commentRoutes } from './comments.js';
import { documentReferenceRoutes } from './document-references.js';
import { documentRoutes } from './documents.js';
import { extensionRoutes } from './extensions.js';
import { serviceRoutes, versionRoutes } from './service.js';
import { relatedTopicRoutes } from './related-topics.js';
import { topicRoutes } from './topics.js';
import { viewpointRoutes } from './viewpoints.js';

/** BCF errors carry the BCF API's `message` (its error schema) beside the platform's `error`. */
const bcfErrorBody = (status: number, message: string, code?: number, name?: string) => ({ message, ...errorBody(status, message, code, name) });

/**
 * The issue-tracking API (seed 001) at `/bcf`: the version list and 2.0's auth info without
 * a token, then each version's resources under `/bcf/{version}`, where everything but the
 * auth info needs a Bearer access token of the platform's OAuth.
 */
export async function bcfRoutes(app: FastifyInstance, ctx: Context) {
  installErrorHandling(app, bcfErrorBody);
  await app.register(async (scope) => versionRoutes(scope));
  for (const version of BCF_VERSIONS) {
    await app.register(async (scope) => versionScope(scope, ctx, version), { prefix: `/${version}` });
  }
}

async function versionScope(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  await app.register(async (scope) => serviceRoutes(scope, ctx, version, 'public'));
  await app.register(async (scope) => {
    requireBearer(scope, ctx);
    await scope.register(async (s) => serviceRoutes(s, ctx, version, 'user'));
    await scope.register(async (s) => boardRoutes(s, ctx, version));
    await scope.register(async (s) => extensionRoutes(s, ctx, version));
    await scope.register(async (s) => topicRoutes(s, ctx, version));
    await scope.register(async (s) => commentRoutes(s, ctx, version));
    await scope.register(async (s) => viewpointRoutes(s, ctx, version));
    await scope.register(async (s) => documentRoutes(s, ctx, version));
    await scope.register(async (s) => documentReferenceRoutes(s, ctx, version));
    await scope.register(async (s) => relatedTopicRoutes(s, ctx, version));
    await scope.register(async (s) => bcfFileRoutes(s, ctx, version));
  });
}
