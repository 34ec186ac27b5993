/**
 * The platform's APIs as the console calls them: every request carries the access token
 * (Bearer); a 401 refreshes it once and retries. Errors come back as ApiError with the
 * message of the platform's `{error: {code, name, message}}` body.
 */
import { accessToken, refreshAccessToken } from './auth.js';

export interface Project { id: string; name: string }
export interface Model { id: string; name: string }
/** A platform revision; a scan's (E57, LAS, LAZ, processed into a point cloud) says `model_type: 'point-cloud'` and its `point_count`. */
export interface Revision { id: number; comment: string; timestamp: number; model_type?: 'point-cloud'; point_count?: number }
export interface ImportStatus {
  result: 'running' | 'success' | 'error';
  model_id: string;
  project_id: string;
  file_name: string;
  comment: string;
  revision_id?: number;
  error?: string;
}
export interface Product {
  objectId: number;
  parent: number;
  globalId: string;
  type: string;
  name: string;
  description: string | null;
  attributes?: Record<string, { type: string; value: unknown }>;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly code?: number, readonly codeName?: string) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error of a failed answer, from its JSON body when it has one. */
export function errorFrom(status: number, statusText: string, bodyText: string): ApiError {
  try {
    const body = JSON.parse(bodyText) as { error?: { code?: number; name?: string; message?: string } | string; error_description?: string };
    if (typeof body.error === 'object' && body.error?.message) return new ApiError(status, body.error.message, body.error.code, body.error.name);
    if (typeof body.error === 'string') return new ApiError(status, body.error_description ?? body.error);
  } catch {
    // not JSON: say what the status says
  }
  return new ApiError(status, `${status} ${statusText || 'error'}`.trim());
}

function withBearer(init: RequestInit, token: string | undefined): RequestInit {
  const headers = new Headers(init.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return { ...init, headers };
}

/** fetch with the access token; on 401 one refresh and one retry. */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const answer = await fetch(path, withBearer(init, accessToken()));
  if (answer.status !== 401) return answer;
  return fetch(path, withBearer(init, await refreshAccessToken()));
}

/** A JSON call of any of the platform's APIs (v1, v2, BCF): the answer's JSON, or an ApiError with its message. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const answer = await authorizedFetch(path, init);
  const text = await answer.text();
  if (!answer.ok) throw errorFrom(answer.status, answer.statusText, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A GET answered with bytes (a snapshot, a BCF file, a library file), fetched with the token: never a URL holding it. */
export async function blobOf(path: string): Promise<Blob> {
  const answer = await authorizedFetch(path);
  if (!answer.ok) throw errorFrom(answer.status, answer.statusText, await answer.text());
  return answer.blob();
}

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

export const listProjects = () => call<Project[]>('GET', '/1.0/projects');
export const createProject = (name: string) => call<Project>('POST', '/1.0/projects/new', { name });
export const listModels = (projectId: string) => call<Model[]>('GET', `/1.0/models?${q({ project_id: projectId })}`);
export const createModel = (projectId: string, name: string) => call<Model>('POST', `/1.0/models/new?${q({ project_id: projectId })}`, { name });
export const listRevisions = (modelId: string) => call<Revision[]>('GET', `/1.0/revisions?${q({ model_id: modelId })}`);
export const importStatus = (token: string) => call<ImportStatus>('GET', `/1.0/model/import/status?${q({ token })}`);

/** One product of a revision with its attributes (seed 000, POST /revision/product). */
export const revisionProduct = (modelId: string, revisionId: number, objectId: string) =>
  call<Product>('POST', `/1.0/revision/product?${q({ model_id: modelId, revision_id: revisionId, object_id: objectId })}`, { attributes: true });

/** A 3D viewer's token URL for the latest revision of every model of a project: its BIM models and scans in one manifest. */
export async function projectViewerTokenUrl(projectId: string): Promise<string> {
  return (await call<{ url: string }>('POST', `/v2/projects/${encodeURIComponent(projectId)}/viewer3d/token`, {})).url;
}

/** A viewer's token URL for some revisions of a project (seed 002, POST /v2/projects/{project}/{kind}/token). */
export async function viewerTokenUrl(kind: 'viewer3d' | 'viewer2d', projectId: string, modelId: string, revisionId: number): Promise<string> {
  const answer = await call<{ url: string }>('POST', `/v2/projects/${encodeURIComponent(projectId)}/${kind}/token`, { models: [modelId], revisions: [revisionId] });
  return answer.url;
}
