import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../auth.js';
import type { Context } from '../context.js';
import { badRequest } from '../../services/errors.js';
import { modelFor } from '../../services/models.js';
import { issueViewerToken } from '../../services/viewer-tokens.js';
import { requestOrigin } from '../origin.js';

const query = {
  type: 'object',
  properties: { project_id: { type: 'string', maxLength: 64 }, model_id: { type: 'string', maxLength: 64 }, revision_id: { type: 'integer', minimum: 1 } },
} as const;

/**
 * Seed 000's beta resource: `POST {base_url}/beta/viewer2d/access` issues a 2D token (60
 * minutes) for one model: the given one, or the project's first model with a revision;
 * its latest revision unless `revision_id` says. Answers `{token, url, modelId}`, `url`
 * being the 2D geometry URL of the token.
 */
export async function viewer2dAccessRoutes(app: FastifyInstance, ctx: Context) {
  requireBearer(app, ctx);
  app.post<{ Querystring: { project_id?: string; model_id?: string; revision_id?: number } }>(
    '/viewer2d/access',
    { schema: { tags: ['beta'], querystring: query } },
    async (request) => {
      const { project_id, model_id, revision_id } = request.query;
      if (!project_id && !model_id) throw badRequest('At least one of `project_id` and `model_id` is required');
      if (revision_id !== undefined && !model_id) throw badRequest('`revision_id` needs `model_id`');
      const projectId = model_id ? (await modelFor(ctx.db, request.auth.userId, model_id)).projectId : project_id!;
      if (project_id && project_id !== projectId) throw badRequest(`Model (${model_id}) is not in project (${project_id})`);
      const issued = await issueViewerToken(ctx.db, request.auth.userId, 'viewer2d', projectId, {
        models: model_id ? [model_id] : undefined,
        revisions: revision_id !== undefined ? [revision_id] : undefined,
      });
      const [first] = issued.revisions;
      // Without a model the project's current set is granted; the first model is the active one.
      const url = `${requestOrigin(request)}/v2/projects/${encodeURIComponent(projectId)}/viewer2d/geometry?token=${issued.token}`;
      return { token: issued.token, url, modelId: first.modelId };
    },
  );
}
