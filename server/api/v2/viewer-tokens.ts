import type { FastifyInstance, FastifyReply } from 'fastify';
import { requireBearer } from '../auth.js';
import type { Context } from '../context.js';
import { notFound } from '../../services/errors.js';
import { grantedRevisions, issueViewerToken, resolveViewerToken, type TokenRequest, type ViewerKind } from '../../services/viewer-tokens.js';
import { requestOrigin } from '../origin.js';
import { SCENE_MEDIA_TYPE } from '../../../src/core/formats/scene.js';
import { PLANS_MEDIA_TYPE } from '../../../src/core/formats/plans.js';
import { processedBody } from '../../services/scenes.js';
import { listProducts, OBJECT_IDS_MAX, PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../../services/products.js';
import { POINTCLOUD_MEDIA_TYPE } from '../../../src/core/formats/pointcloud.js';
import { kindOfKey, UPLOAD_MEDIA_TYPES } from '../../services/upload-kind.js';
import { sendRanged } from '../ranges.js';

/** IFC text: STEP physical file (ISO 10303-21). */
export const IFC_MEDIA_TYPE = 'application/x-step';

const KINDS: { kind: ViewerKind; resource: 'data' | 'geometry' }[] = [
  { kind: 'viewer3d', resource: 'data' },
  { kind: 'viewer2d', resource: 'geometry' },
];

/** Viewers embedded on other origins read data URLs, as they read the hosted platform's. */
function cors(reply: FastifyReply) {
  reply.header('Access-Control-Allow-Origin', '*');
}

const tokenBody = {
  type: ['object', 'null'],
  properties: {
    models: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 100 },
    revisions: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 100 },
    // Seconds. A negative value issues a token already expired (for tests), at most a day
    // back: further, the expiry fell outside the dates the database stores (a 500).
    expiresIn: { type: 'number', minimum: -86_400 },
  },
  additionalProperties: false,
} as const;
const projectParams = { type: 'object', properties: { project: { type: 'string', maxLength: 64 } }, required: ['project'] } as const;
const tokenQuery = { type: 'object', properties: { token: { type: 'string', maxLength: 255 } } } as const;
const productsQuery = {
  type: 'object',
  properties: {
    ...tokenQuery.properties,
    model: { type: 'string', maxLength: 64 },
    ids: { type: 'string', pattern: '^[0-9]{1,20}(,[0-9]{1,20}){0,99}$', description: `object ids, comma-separated (at most ${OBJECT_IDS_MAX})` },
    attributes: { type: 'boolean', default: false },
    definedBy: { type: 'boolean', default: false },
    page: { type: 'integer', minimum: 1, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
  },
} as const;
const fileQuery = {
  type: 'object',
  properties: { ...tokenQuery.properties, model: { type: 'string', maxLength: 64 }, format: { type: 'string', enum: ['ifc', 'scene', 'plans', 'pointcloud'], default: 'ifc' } },
} as const;

/**
 * The viewers' tokens (seed 002): `POST /v2/projects/{project}/viewer3d/token` and
 * `.../viewer2d/token` (Bearer; body `{models?, revisions?, expiresIn?}`; 201
 * `{url, expiresAt}`), the data URLs they give (`.../viewer3d/data?token=`,
 * `.../viewer2d/geometry?token=`: the manifest of DESIGN.md, "Token URLs") and the file
 * URLs in that manifest (`.../{kind}/file?token=&model=`: the revision's IFC as uploaded;
 * `&format=scene`: the scene processing wrote, formats/scene.ts, with its unpacked
 * `size`; `&format=plans`: its storey plans, formats/plans.ts), and each model's product records (`.../{kind}/products?token=&model=`, by
 * `ids` or by page: what a viewer showing a scene asks for attributes and property sets).
 * A point cloud revision (a scan) is listed by 3D manifests only, as `{id, name, revision,
 * objectIdBase, modelType: 'point-cloud', formats: [{type: POINTCLOUD_MEDIA_TYPE, url, size}]}`;
 * its `&format=pointcloud` file, and the scan as uploaded (`format=ifc`, its own media type),
 * answer HTTP range requests (api/ranges.ts).
 */
export async function viewerTokenRoutes(app: FastifyInstance, ctx: Context) {
  const tags = ['v2 viewer tokens'];
  for (const { kind, resource } of KINDS) {
    /** The revision of `model` a live token of this kind grants; 401 or 404 otherwise. */
    const grantedRevision = async (project: string, { token, model }: { token?: string; model?: string }) => {
      const grant = await resolveViewerToken(ctx.db, kind, project, token);
      const revision = (await grantedRevisions(ctx.db, grant)).find((r) => r.modelId === model);
      if (!revision) throw notFound('Model', model ?? '');
      return revision;
    };
    await app.register(async (scope) => {
      requireBearer(scope, ctx);
      // Clients send no body, or an empty one labelled JSON: both mean the defaults.
      const json = scope.getDefaultJsonParser('error', 'error');
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => (String(body).trim() === '' ? done(null, null) : json(request, String(body), done)));
      scope.post<{ Params: { project: string }; Body: TokenRequest | null }>(
        `/projects/:project/${kind}/token`,
        { schema: { tags, params: projectParams, body: tokenBody } },
        async (request, reply) => {
          const issued = await issueViewerToken(ctx.db, request.auth.userId, kind, request.params.project, request.body ?? {});
          const url = `${requestOrigin(request)}/v2/projects/${encodeURIComponent(request.params.project)}/${kind}/${resource}?token=${issued.token}`;
          return reply.status(201).send({ url, expiresAt: issued.expiresAt.toISOString() });
        },
      );
    });

    app.get<{ Params: { project: string }; Querystring: { token?: string } }>(
      `/projects/:project/${kind}/${resource}`,
      { schema: { tags, params: projectParams, querystring: tokenQuery } },
      async (request, reply) => {
        cors(reply);
        const grant = await resolveViewerToken(ctx.db, kind, request.params.project, request.query.token);
        const files = `/v2/projects/${encodeURIComponent(grant.projectId)}/${kind}/file?token=${encodeURIComponent(request.query.token!)}`;
        const products = `/v2/projects/${encodeURIComponent(grant.projectId)}/${kind}/products?token=${encodeURIComponent(request.query.token!)}`;
        const granted = await grantedRevisions(ctx.db, grant);
        // Point clouds have no plans: the 2D viewer's manifest leaves them out.
        const clouds = granted.filter((r) => r.modelType === 'point-cloud' && kind === 'viewer3d' && r.pointCloudKey);
        const bims = granted.filter((r) => r.modelType !== 'point-cloud');
        const pointClouds = clouds.map((r) => ({
          id: r.modelId,
          name: r.modelName,
          revision: r.id,
          objectIdBase: String(r.objectIdBase),
          modelType: 'point-cloud',
          formats: [{ type: POINTCLOUD_MEDIA_TYPE, url: `${files}&model=${r.modelId}&format=pointcloud`, size: r.pointCloudSize }],
        }));
        const bimModels = bims.map((r) => ({
          id: r.modelId,
          name: r.modelName,
          revision: r.id,
          objectIdBase: String(r.objectIdBase),
          formats: [
            ...(r.sceneKey ? [{ type: SCENE_MEDIA_TYPE, url: `${files}&model=${r.modelId}&format=scene`, ...(r.sceneBytes ? { size: r.sceneBytes } : {}) }] : []),
            ...(r.plansKey ? [{ type: PLANS_MEDIA_TYPE, url: `${files}&model=${r.modelId}&format=plans` }] : []),
            { type: IFC_MEDIA_TYPE, url: `${files}&model=${r.modelId}`, size: r.size },
          ],
          products: `${products}&model=${r.modelId}`,
        }));
        // In object id order, as granted (a project's BIM and scans side by side).
        const order = new Map(granted.map((r, i) => [r.modelId, i]));
        const models = [...bimModels, ...pointClouds].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
        return reply.header('Cache-Control', 'no-store').send({ models });
      },
    );

    app.get<{ Params: { project: string }; Querystring: { token?: string; model?: string; format?: 'ifc' | 'scene' | 'plans' | 'pointcloud' } }>(
      `/projects/:project/${kind}/file`,
      {
        schema: {
          tags,
          description:
            'A granted revision\'s file: its IFC as uploaded (`format=ifc`; a scan\'s upload with its own media type), its scene, its plans, or a scan\'s point cloud (`format=pointcloud`, application/vnd.platform.pointcloud). Point clouds and scans answer HTTP range requests: `Range: bytes=a-b`, `bytes=a-` or `bytes=-n` gets 206 with Content-Range; a range past the end, 416 with the JSON error body.',
          params: projectParams,
          querystring: fileQuery,
        },
      },
      async (request, reply) => {
        cors(reply);
        const revision = await grantedRevision(request.params.project, request.query);
        reply.header('Cache-Control', 'private, max-age=3600');
        const format = request.query.format ?? 'ifc';
        if (format === 'ifc') {
          if (revision.modelType === 'point-cloud') return sendRanged(request, reply, ctx.blobs, revision.blobKey, revision.size, UPLOAD_MEDIA_TYPES[kindOfKey(revision.blobKey)]);
          return reply.header('Content-Type', IFC_MEDIA_TYPE).header('Content-Length', revision.size).send(await ctx.blobs.get(revision.blobKey));
        }
        if (format === 'pointcloud') {
          if (!revision.pointCloudKey) throw notFound('Point cloud', `revision ${revision.id} of model ${revision.modelId}`);
          return sendRanged(request, reply, ctx.blobs, revision.pointCloudKey, revision.pointCloudSize!, POINTCLOUD_MEDIA_TYPE);
        }
        const [key, size, type] = format === 'scene' ? [revision.sceneKey, revision.sceneSize, SCENE_MEDIA_TYPE] : [revision.plansKey, revision.plansSize, PLANS_MEDIA_TYPE];
        if (!key) throw notFound(format === 'scene' ? 'Scene' : 'Plans', `revision ${revision.id} of model ${revision.modelId}`);
        const { body, encoding, size: sent } = await processedBody(ctx.blobs, key, size!, request.headers['accept-encoding']);
        reply.header('Content-Type', type).header('Vary', 'Accept-Encoding');
        if (encoding) reply.header('Content-Encoding', encoding);
        if (sent !== undefined) reply.header('Content-Length', sent);
        return reply.send(body);
      },
    );

    // A viewer on another origin asking for a suffix range (`bytes=-n`, not a CORS-safelisted
    // Range) first sends a preflight: Range is allowed, from any origin, as the file is.
    app.options(`/projects/:project/${kind}/file`, { schema: { hide: true } }, (_request, reply) =>
      reply
        .status(204)
        .header('Access-Control-Allow-Origin', '*')
        .header('Access-Control-Allow-Methods', 'GET, HEAD')
        .header('Access-Control-Allow-Headers', 'Range')
        .header('Access-Control-Max-Age', '86400')
        .send(),
    );

    app.get<{ Params: { project: string }; Querystring: { token?: string; model?: string; ids?: string; attributes: boolean; definedBy: boolean; page: number; per_page: number } }>(
      `/projects/:project/${kind}/products`,
      { schema: { tags, params: projectParams, querystring: productsQuery } },
      async (request, reply) => {
        cors(reply);
        const revision = await grantedRevision(request.params.project, request.query);
        const { ids, attributes, definedBy, page, per_page } = request.query;
        const filter = { attributes, definedBy, ...(ids ? { objectId: ids.split(',').map(Number) } : {}) };
        const json = await listProducts(ctx.db, [revision], filter, ids ? { page: 1, per_page: PER_PAGE_MAX } : { page, per_page });
        return reply.header('Cache-Control', 'private, max-age=3600').type('application/json').send(json);
      },
    );
  }
}
