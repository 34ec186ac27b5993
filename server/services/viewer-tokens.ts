import type { Sql } from '../storage/database.js';
import { badRequest, notFound, unauthorized } from './errors.js';
import { projectFor } from './projects.js';
import { currentRevisions, REVISION_COLUMNS, revisionOf, type StoredRevision } from './revisions.js';
import { newToken, tokenHash } from './secrets.js';

/**
 * Tokens of the viewers' data URLs (seed 002, "Tokens for the viewers"; seed 000's beta
 * 2D access): each grants reading a fixed set of revisions of one project, chosen when it
 * is issued, until it expires. Stored as their SHA-256. 2D tokens live 60 minutes (seed
 * 000, "Limits"); 3D tokens, whose lifetime no seed gives, 24 hours.
 */
export type ViewerKind = 'viewer3d' | 'viewer2d';

export const LIFETIME_MS: Record<ViewerKind, number> = { viewer3d: 24 * 3600_000, viewer2d: 3600_000 };

export interface Grant {
  kind: ViewerKind;
  projectId: string;
  revisions: { model: string; revision: number }[];
}

export interface TokenRequest {
  /** Model ids; their latest revisions. Default: every model of the project that has one. */
  models?: string[];
  /** A revision number for each model of `models` (same order), instead of the latest. */
  revisions?: number[];
  /** Seconds; shortens the lifetime, never lengthens it (tests use a negative value). */
  expiresIn?: number;
}

export async function issueViewerToken(sql: Sql, userId: string, kind: ViewerKind, projectId: string, request: TokenRequest) {
  await projectFor(sql, userId, projectId);
  let revisions: StoredRevision[];
  if (request.models?.length) {
    if (request.revisions && request.revisions.length !== request.models.length) throw badRequest('`revisions` needs one revision number for each of `models`');
    revisions = [];
    for (const [i, model] of request.models.entries()) {
      const revision = await revisionOf(sql, model, request.revisions?.[i]).catch(() => {
        throw notFound('Model revision', request.revisions ? `${model} ${request.revisions[i]}` : model);
      });
      if (revision.projectId !== projectId) throw notFound('Model', model);
      revisions.push(revision);
    }
  } else {
    revisions = await currentRevisions(sql, projectId);
    if (!revisions.length) throw badRequest(`Project (${projectId}) has no processed revision to view`);
  }
  const token = newToken();
  const lifetime = Math.min(LIFETIME_MS[kind], request.expiresIn === undefined ? Infinity : request.expiresIn * 1000);
  const expiresAt = new Date(Date.now() + lifetime);
  const granted = revisions.map((r) => ({ model: r.modelId, revision: r.id }));
  await sql.query('INSERT INTO viewer_tokens (token_hash, kind, project_id, revisions, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    tokenHash(token),
    kind,
    projectId,
    JSON.stringify(granted),
    expiresAt,
  ]);
  return { token, expiresAt, revisions };
}

/** The grant of a live token of this kind and project; 401 when unknown, expired or issued for elsewhere. */
export async function resolveViewerToken(sql: Sql, kind: ViewerKind, projectId: string, token: string | undefined): Promise<Grant> {
  const [row] = token
    ? await sql.query('SELECT revisions FROM viewer_tokens WHERE token_hash = $1 AND kind = $2 AND project_id = $3 AND expires_at > now()', [tokenHash(token), kind, projectId])
    : [];
  if (!row) throw unauthorized('Token expired or unknown');
  return { kind, projectId, revisions: row.revisions };
}

/** The granted revisions with what a manifest shows of them (revisions deleted since are left out). */
export async function grantedRevisions(sql: Sql, grant: Grant): Promise<(StoredRevision & { modelName: string })[]> {
  return sql.query(
    `SELECT ${REVISION_COLUMNS}, m.name AS "modelName"
     FROM jsonb_to_recordset($1::jsonb) AS g(model text, revision int)
     JOIN revisions r ON r.model_id = g.model AND r.id = g.revision JOIN models m ON m.id = r.model_id AND m.project_id = $2`,
    [JSON.stringify(grant.revisions), grant.projectId],
  );
}
