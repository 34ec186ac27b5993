import type { IncomingMessage, ServerResponse } from 'node:http';
import { findProject } from './catalogue.js';
import { ApiError, type Middleware, methodNotAllowed, projectNotFound, readJsonBody, requestOrigin, sendError, sendJson, unauthorized } from './http.js';
import { manifestFor } from './manifest.js';
import type { TokenStore } from './tokens.js';
import { parseTokenRequest } from './viewer3d-routes.js';

/**
 * The 2D viewer's token routes of the demo backend (seed 002, "Tokens for the viewers"):
 *
 *   POST /v2/projects/{project}/viewer2d/token   body (optional) {"models"?: string[], "expiresIn"?: seconds}
 *        201 {"url": "<origin>/v2/projects/{project}/viewer2d/geometry?token=<32 hex>", "expiresAt": "<ISO 8601>"}
 *   GET  /v2/projects/{project}/viewer2d/geometry?token=<token>
 *        200 the same manifest as the 3D data URL (DESIGN.md: it serves viewer2d loadUrl too)
 *
 * 2D tokens expire after 60 minutes (seed 002, "Limits"; tokens.ts), sooner with
 * `expiresIn`. Unknown project: 404; unknown, expired or 3D token: 401.
 */

const ROUTE = /^\/v2\/projects\/([^/]+)\/viewer2d\/(token|geometry)\/?$/;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization',
};

export function viewer2dRoutes(store: TokenStore): Middleware {
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = ROUTE.exec(url.pathname);
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
    const handle = endpoint === 'token' ? issueToken : readGeometry;
    handle(store, projectId, method, url, req, res).catch((error: unknown) => {
      if (error instanceof ApiError) sendError(res, error, CORS);
      else next(error);
    });
  };
}

async function issueToken(store: TokenStore, projectId: string, method: string, _url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (method !== 'POST') throw methodNotAllowed(method, 'POST');
  const project = findProject(projectId);
  if (!project) throw projectNotFound(projectId);
  const request = parseTokenRequest(await readJsonBody(req), project);
  const lifetime = request.expiresIn === undefined ? undefined : request.expiresIn * 1000;
  const { token, expiresAt } = store.issue('viewer2d', project.id, request.models, lifetime);
  sendJson(res, 201, { url: viewer2dGeometryUrl(req, project.id, token), expiresAt: new Date(expiresAt).toISOString() }, CORS);
}

/** The token URL a 2D viewer is given: absolute on the origin the client used. */
export function viewer2dGeometryUrl(req: IncomingMessage, projectId: string, token: string): string {
  return `${requestOrigin(req)}/v2/projects/${encodeURIComponent(projectId)}/viewer2d/geometry?token=${token}`;
}

async function readGeometry(store: TokenStore, projectId: string, method: string, url: URL, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, 'GET');
  const project = findProject(projectId);
  if (!project) throw projectNotFound(projectId);
  const grant = store.resolve('viewer2d', project.id, url.searchParams.get('token'));
  if (!grant) throw unauthorized();
  sendJson(res, 200, manifestFor(grant.modelIds), CORS);
}
