import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { requestOrigin } from '../origin.js';
import { notFound, unauthorized } from '../../services/errors.js';
import { findUser, type User } from '../../services/users.js';
import { projectFor } from '../../services/projects.js';
import { currentRevisions } from '../../services/revisions.js';
import { countProducts, getProduct, listProducts, PER_PAGE_MAX } from '../../services/products.js';
import { listProjectSummaries, projectSummary, type ProjectSummary } from '../../services/client-projects.js';
import { IMAGE_TYPE, projectImage } from '../../services/project-image.js';
import { AVATAR_SIZE, AVATAR_TYPE, avatarSvg } from '../../services/avatars.js';
import { resolveAccessToken } from '../../services/oauth-model.js';

/**
 * What real clients of the platform call besides the seeds' resources (docs/V2.md,
 * "What clients call"): the signed-in user, the projects they see, a project's products
 * by IFC type, and two pictures an `<img>` loads without a token (a user's avatar, a
 * project's image). Lists take `page` (from 1) and `pageSize` and answer `Link`
 * (first, prev, next, last) and `X-Total-Count`, as the hosted platform's v2 API did.
 */
const tags = ['v2 clients'];
const PAGE_SIZE_DEFAULT = 100;

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const projectParams = { type: 'object', properties: { project: id }, required: ['project'] } as const;
const paging = {
  page: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: PAGE_SIZE_DEFAULT },
} as const;
const IFC_TYPE = '[Ii][Ff][Cc][A-Za-z0-9]{1,96}';
const productsQuery = {
  type: 'object',
  properties: {
    ...paging,
    ifcType: { type: 'string', pattern: `^\\s*${IFC_TYPE}\\s*(,\\s*${IFC_TYPE}\\s*){0,99}$`, description: 'IFC types, any case, comma-separated (exact types; IfcWall is not IfcWallStandardCase)' },
  },
  additionalProperties: false,
} as const;
const productParams = {
  type: 'object',
  properties: { project: id, objectId: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
  required: ['project', 'objectId'],
} as const;

const owner = { type: ['object', 'null'], properties: { id: { type: 'string' }, name: { type: 'string' } } } as const;
const project = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, createdAt: { type: 'string' }, owner, imageUrl: { type: 'string' } },
  required: ['id', 'name', 'owner'],
} as const;
const user = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, username: { type: 'string' }, avatarUrl: { type: 'string' } },
  required: ['id', 'name', 'avatarUrl'],
} as const;
const productItem = {
  type: 'object',
  properties: { objectId: { type: 'integer' }, ifcType: { type: 'string' }, attributes: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } } },
  required: ['objectId', 'ifcType', 'attributes'],
} as const;

/** `Link` (RFC 8288) and `X-Total-Count` of a page: absolute URLs of the same request with another `page`. */
function pageHeaders(request: FastifyRequest, reply: FastifyReply, page: number, pageSize: number, total: number) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  const url = (n: number) => {
    const target = new URL(request.url, requestOrigin(request) || 'http://localhost');
    target.searchParams.set('page', String(n));
    target.searchParams.set('pageSize', String(pageSize));
    return `<${requestOrigin(request)}${target.pathname}${target.search}>`;
  };
  const links = [];
  if (page > 1) links.push(`${url(1)}; rel="first"`, `${url(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${url(page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (links.length) reply.header('Link', links.join(', '));
  reply.header('X-Total-Count', String(total));
}

/** A picture that is SVG: drawn by the platform, and opened alone it runs nothing. */
const svgHeaders = (reply: FastifyReply, type: string) =>
  reply.header('Content-Type', type).header('X-Content-Type-Options', 'nosniff').header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");

const avatarUrl = (request: FastifyRequest, userId: string) => `${requestOrigin(request)}/v2/users/${encodeURIComponent(userId)}/avatar`;

function projectJson(request: FastifyRequest, p: ProjectSummary) {
  const { imageVersion, ...rest } = p;
  return { ...rest, ...(imageVersion ? { imageUrl: `${requestOrigin(request)}/v2/projects/${encodeURIComponent(p.id)}/image?v=${imageVersion}` } : {}) };
}

/** The Bearer routes (registered inside api/v2/index.ts's Bearer scope). */
export async function clientRoutes(app: FastifyInstance, ctx: Context) {
  const { db } = ctx;

  app.get('/user', { schema: { tags, response: { 200: user } } }, async (request) => {
    const me = (await findUser(db, request.auth.userId)) as User;
    return { id: me.id, name: me.name, username: me.email, avatarUrl: avatarUrl(request, me.id) };
  });

  app.get<{ Querystring: { page: number; pageSize: number } }>(
    '/projects',
    { schema: { tags, querystring: { type: 'object', properties: paging, additionalProperties: false }, response: { 200: { type: 'array', items: project } } } },
    async (request, reply) => {
      const { page, pageSize } = request.query;
      const { items, total } = await listProjectSummaries(db, request.auth.userId, page, pageSize);
      pageHeaders(request, reply, page, pageSize, total);
      return items.map((p) => projectJson(request, p));
    },
  );

  app.get<{ Params: { project: string } }>('/projects/:project', { schema: { tags, params: projectParams, response: { 200: project } } }, async (request) =>
    projectJson(request, await projectSummary(db, request.auth.userId, request.params.project)),
  );

  app.get<{ Params: { project: string }; Querystring: { page: number; pageSize: number; ifcType?: string } }>(
    '/projects/:project/ifc/products',
    { schema: { tags, params: projectParams, querystring: productsQuery, response: { 200: { type: 'array', items: productItem } } } },
    async (request, reply) => {
      await projectFor(db, request.auth.userId, request.params.project);
      const revisions = await currentRevisions(db, request.params.project);
      const { page, pageSize, ifcType } = request.query;
      const type = ifcType ? [...new Set(ifcType.split(',').map((t) => t.trim()))] : undefined;
      const total = await countProducts(db, revisions, { type });
      const json = await listProducts(db, revisions, { type, shape: 'v2' }, { page, per_page: pageSize });
      pageHeaders(request, reply, page, pageSize, total);
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  app.get<{ Params: { project: string; objectId: number } }>(
    '/projects/:project/ifc/products/:objectId',
    { schema: { tags, params: productParams, response: { 200: productItem } } },
    async (request, reply) => {
      await projectFor(db, request.auth.userId, request.params.project);
      const json = await getProduct(db, await currentRevisions(db, request.params.project), request.params.objectId, { shape: 'v2' });
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}

/**
 * The pictures (outside the Bearer scope: an `<img>` sends no token). A project's image
 * answers its members' Bearer token, or the `v` of the `imageUrl` they were given; an
 * avatar answers anyone who has the user's id.
 */
export async function clientImageRoutes(app: FastifyInstance, ctx: Context) {
  const { db, blobs } = ctx;

  app.get<{ Params: { project: string }; Querystring: { v?: string } }>(
    '/projects/:project/image',
    {
      schema: {
        tags,
        params: projectParams,
        querystring: { type: 'object', properties: { v: { type: 'string', maxLength: 64, description: "the version in the project's imageUrl; or send the Bearer token" } }, additionalProperties: false },
        security: [{ bearer: [] }, {}],
      },
    },
    async (request, reply) => {
      const { project } = request.params;
      const { v } = request.query;
      const header = request.headers.authorization;
      if (header) {
        const match = /^Bearer\s+(\S{1,255})$/i.exec(header);
        const auth = match ? await resolveAccessToken(db, match[1]) : undefined;
        if (!auth) throw unauthorized('The access token is expired or unknown');
        await projectFor(db, auth.userId, project);
      } else if (!v) {
        reply.header('WWW-Authenticate', 'Bearer realm="platform"');
        throw unauthorized("The Authorization header with a Bearer access token is missing (or use the project's imageUrl)");
      }
      const image = await projectImage(db, blobs, project, v);
      const cache = v ? 'private, max-age=31536000, immutable' : 'private, no-cache';
      reply.header('Access-Control-Allow-Origin', '*').header('ETag', `"${image.version}"`);
      if (request.headers['if-none-match'] === `"${image.version}"`) return reply.status(304).header('Cache-Control', cache).send();
      const body = await image.open();
      return svgHeaders(reply, IMAGE_TYPE).header('Cache-Control', cache).send(body);
    },
  );

  app.get<{ Params: { user: string }; Querystring: { size: number } }>(
    '/users/:user/avatar',
    {
      schema: {
        tags,
        params: { type: 'object', properties: { user: id }, required: ['user'] },
        querystring: { type: 'object', properties: { size: { type: 'integer', minimum: AVATAR_SIZE.min, maximum: AVATAR_SIZE.max, default: AVATAR_SIZE.default } }, additionalProperties: false },
      },
    },
    async (request, reply) => {
      const found = await findUser(db, request.params.user);
      if (!found) throw notFound('User', request.params.user);
      return svgHeaders(reply, AVATAR_TYPE).header('Cache-Control', 'public, max-age=86400').header('Access-Control-Allow-Origin', '*').send(avatarSvg(found, request.query.size));
    },
  );
}
