import { randomBytes } from 'node:crypto';

/**
 * Viewer tokens of the demo backend, in memory. A token is bound to one kind of viewer
 * endpoint and one project, and carries what it grants (the model ids) until it
 * expires. The 2D viewer's tokens (token-routes.ts) are the kind 'viewer2d' in the same
 * store, with their documented 60 minute lifetime.
 */

export type TokenKind = 'viewer3d' | 'viewer2d';

/** How long a token lives unless the request asks for less. */
export const TOKEN_LIFETIME_MS: Record<TokenKind, number> = {
  viewer3d: 24 * 60 * 60 * 1000, // not documented (seed 002); a working day and then some
  viewer2d: 60 * 60 * 1000, // seed 002, "Limits"
};

export interface TokenGrant {
  kind: TokenKind;
  project: string;
  modelIds: string[];
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/** Beyond this many live tokens the oldest are dropped (a dev server has no database). */
const MAX_TOKENS = 10_000;

export class TokenStore {
  private readonly grants = new Map<string, TokenGrant>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Issues a fresh random token (32 hex digits, like the platform's compacted UUIDs).
   * `lifetimeMs` may shorten the kind's lifetime, never lengthen it; a negative value
   * gives an already expired token (for tests of the 401 path).
   */
  issue(kind: TokenKind, project: string, modelIds: string[], lifetimeMs = TOKEN_LIFETIME_MS[kind]): IssuedToken {
    this.prune();
    const token = randomBytes(16).toString('hex');
    const expiresAt = this.now() + Math.min(lifetimeMs, TOKEN_LIFETIME_MS[kind]);
    this.grants.set(token, { kind, project, modelIds: [...modelIds], expiresAt });
    return { token, expiresAt };
  }

  /** The grant of a live token of this kind and project; undefined when unknown, expired or for elsewhere. */
  resolve(kind: TokenKind, project: string, token: string | null | undefined): TokenGrant | undefined {
    if (!token) return undefined;
    const grant = this.grants.get(token);
    if (!grant || grant.kind !== kind || grant.project !== project) return undefined;
    if (grant.expiresAt <= this.now()) {
      this.grants.delete(token);
      return undefined;
    }
    return grant;
  }

  get size(): number {
    return this.grants.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [token, grant] of this.grants) {
      if (grant.expiresAt <= now) this.grants.delete(token);
    }
    // Map iteration follows insertion order: the first entries are the oldest.
    for (const token of this.grants.keys()) {
      if (this.grants.size < MAX_TOKENS) break;
      this.grants.delete(token);
    }
  }
}
