import type { IncomingMessage, ServerResponse } from 'node:http';
import { findProject, type Project } from './catalogue.js';
import {
  ApiError,
  badRequest,
  type Middleware,
  methodNotAllowed,
  modelNotFound,
  projectNotFound,
  readJsonBody,
  requestOrigin,
  sendError,
  sendJson,
  unauthorized,
} from './http.js';
import { manifestFor } from './manifest.js';
import type { TokenKind, TokenStore } from './tokens.js';

/**
 * The viewers' token routes of the demo backend (seed 002, "Tokens for the viewers"),
 * for one kind of token:
 *
 *   POST /v2/projects/{project}/{kind}/token   body (optional) {"models"?: string[], "expiresIn"?: seconds}
 *        201 {"url": "<origin>/v2/projects/{project}/{kind}/{resource}?token=<32 hex>", "expiresAt": "<ISO 8601>"}
 *   GET  /v2/projects/{project}/{kind}/{resource}?token=<token>
 *        200 manifest {"models": [{id, name, revision, objectIdBase, formats: [{type, url}]}]}
 *
 * viewer3d answers at `data`, viewer2d at `geometry`, both with the same manifest
 * (DESIGN.md). Unknown project: 404 code 20 NOT_FOUND; unknown, expired or other-kind
 * token: 401 UNAUTHORIZED. Lifetimes: tokens.ts.
 */
export interface TokenRoute {
  kind: TokenKind;
  resource: 'data' | 'geometry';
}

export const VIEWER3D: TokenRoute = { kind: 'viewer3d', resource: 'data' };
export const VIEWER2D: TokenRoute = { kind: 'viewer2d', resource: 'geometry' };

/** Data URLs are fetched by viewers embedded on other origins, as the platform's are. */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization',
};

export function tokenRoutes(store: TokenStore, route: TokenRoute): Middleware {
  const pattern = new RegExp(`^/v2/projects/([^/]+)/${route.kind}/(token|${route.resource})/?$`);
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = pattern.exec(url.pathname);
    if (!match) return next();
    const [, rawProject, endpoint] = match;
    let projectId: string;
    try {
      projectId = decodeURIComponent(rawProject);
    } catch {
      projectId = rawProject;
    }
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    const handle = endpoint === 'token' ? issueToken : readManifest;
    handle(store, route, projectId, method, url, req, res).catch((error: unknown) => {
      if (error instanceof ApiError) sendError(res, error, CORS);
      else next(error);
    });
  };
}

/** The token URL a viewer is given: absolute on the origin the client used, like `{base_url}/v2/...`. */
export function tokenUrl(req: IncomingMessage, route: TokenRoute, projectId: string, token: string): string {
  return `${requestOrigin(req)}/v2/projects/${encodeURIComponent(projectId)}/${route.kind}/${route.resource}?token=${token}`;
}

type Handler = (store: TokenStore, route: TokenRoute, projectId: string, method: string, url: URL, req: IncomingMessage, res: ServerResponse) => Promise<void>;

const issueToken: Handler = async (store, route, projectId, method, _url, req, res) => {
  if (method !== 'POST') throw methodNotAllowed(method, 'POST');
  const project = findProject(projectId);
  if (!project) throw projectNotFound(projectId);
  const request = parseTokenRequest(await readJsonBody(req), project);
  const lifetime = request.expiresIn === undefined ? undefined : request.expiresIn * 1000;
  const { token, expiresAt } = store.issue(route.kind, project.id, request.models, lifetime);
  sendJson(res, 201, { url: tokenUrl(req, route, project.id, token), expiresAt: new Date(expiresAt).toISOString() }, CORS);
};

const readManifest: Handler = async (store, route, projectId, method, url, _req, res) => {
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, 'GET');
  const project = findProject(projectId);
  if (!project) throw projectNotFound(projectId);
  const grant = store.resolve(route.kind, project.id, url.searchParams.get('token'));
  if (!grant) throw unauthorized();
  sendJson(res, 200, manifestFor(grant.modelIds), CORS);
};

export interface TokenRequest {
  models: string[];
  expiresIn?: number;
}

/** Body of POST .../token: all optional; models must belong to the project. */
export function parseTokenRequest(body: unknown, project: Project): TokenRequest {
  if (body === undefined || body === null) return { models: project.models };
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a JSON object');
  const { models, expiresIn } = body as { models?: unknown; expiresIn?: unknown };
  let picked = project.models;
  if (models !== undefined) {
    if (!Array.isArray(models) || models.length === 0 || !models.every((m) => typeof m === 'string')) {
      throw badRequest('"models" must be a non-empty array of model ids');
    }
    for (const id of models as string[]) {
      if (!project.models.includes(id)) throw modelNotFound(id);
    }
    picked = [...new Set(models as string[])];
  }
  if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn))) {
    throw badRequest('"expiresIn" must be a number of seconds');
  }
  return { models: picked, expiresIn: expiresIn as number | undefined };
}
