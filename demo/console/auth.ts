/**
 * Signing in to the platform: OAuth 2.0 authorization code with PKCE (S256) as the
 * public client `console` (no secret; its one registered callback is this page,
 * `<platform>/console/`). The tokens live in sessionStorage (this tab only, gone with it);
 * an access token the API refuses is refreshed once with the refresh token. Signing out
 * revokes them on the platform and ends the sign-in page's session there too.
 */
import { randomToken, s256Challenge } from './pkce.js';

export const CLIENT_ID = 'console';
const TOKENS_KEY = 'bim-console.tokens';
const PENDING_KEY = 'bim-console.pending-sign-in';

interface Tokens {
  accessToken: string;
  refreshToken?: string;
  /** ms since the epoch; informative (the API's 401 is what triggers a refresh). */
  expiresAt: number;
}

/** The registered callback: this page's own address without query or fragment. */
export function redirectUri(): string {
  return new URL(import.meta.env.BASE_URL, location.origin).href;
}

function readTokens(): Tokens | undefined {
  try {
    const tokens = JSON.parse(sessionStorage.getItem(TOKENS_KEY) ?? 'null') as Tokens | null;
    return tokens?.accessToken ? tokens : undefined;
  } catch {
    return undefined;
  }
}

function storeTokens(answer: { access_token: string; refresh_token?: string; expires_in?: number }): void {
  const tokens: Tokens = { accessToken: answer.access_token, refreshToken: answer.refresh_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 };
  sessionStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
}

export function isSignedIn(): boolean {
  return readTokens() !== undefined;
}

export function accessToken(): string | undefined {
  return readTokens()?.accessToken;
}

/** Listeners told when the session ends (sign-out, or a refresh the platform refused). */
const endListeners = new Set<(reason: string) => void>();
export function onSessionEnd(listener: (reason: string) => void): void {
  endListeners.add(listener);
}

export function signOut(reason = 'You have signed out.'): void {
  sessionStorage.removeItem(TOKENS_KEY);
  for (const listener of endListeners) listener(reason);
}

/**
 * Signing out at the person's request: the refresh token (and the access token of its
 * grant) revoked (RFC 7009), the sign-in page's session ended, so the next sign-in asks
 * for the password; then `signOut`. Neither request's failure keeps the console signed in.
 */
export async function signOutOfPlatform(): Promise<void> {
  const tokens = readTokens();
  const token = tokens?.refreshToken ?? tokens?.accessToken;
  await Promise.allSettled([
    token && fetch('/oauth2/revoke', { method: 'POST', body: new URLSearchParams({ client_id: CLIENT_ID, token }) }),
    fetch('/oauth2/sign-out', { method: 'POST' }),
  ]);
  signOut();
}

/** Goes to the platform's sign-in page; it comes back to this page with ?code=&state=. */
export async function startSignIn(): Promise<void> {
  const verifier = randomToken();
  const state = randomToken(16);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state }));
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    response_type: 'code',
    state,
    code_challenge: await s256Challenge(verifier),
    code_challenge_method: 'S256',
  });
  location.assign(`/1.0/oauth/authorize?${query}`);
}

/**
 * On the way back from the sign-in page: checks the state, trades the code for tokens
 * and takes the parameters out of the address bar. Resolves false when the page was not
 * opened by a sign-in; throws with the reason when the sign-in failed.
 */
export async function completeSignIn(): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  const error = params.get('error');
  if (!code && !error) return false;
  history.replaceState(null, '', redirectUri());
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (error) throw new Error(error === 'access_denied' ? 'Sign-in was denied.' : `Sign-in failed (${error}${params.get('error_description') ? `: ${params.get('error_description')}` : ''}).`);
  if (!pending || params.get('state') !== pending.state) throw new Error('Sign-in failed: this answer does not belong to a sign-in started here (state mismatch). Try again.');
  storeTokens(await tokenRequest({ grant_type: 'authorization_code', client_id: CLIENT_ID, code: code!, code_verifier: pending.verifier, redirect_uri: redirectUri() }));
  return true;
}

let refreshing: Promise<string> | undefined;

/**
 * A new access token from the refresh token (one request however many calls ask at
 * once). When the platform refuses it, the session ends and this throws.
 */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= (async () => {
    const refreshToken = readTokens()?.refreshToken;
    if (!refreshToken) {
      signOut('Your session has ended: please sign in again.');
      throw new Error('Not signed in');
    }
    try {
      storeTokens(await tokenRequest({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: refreshToken }));
      return readTokens()!.accessToken;
    } catch (error) {
      signOut(`Your session has ended (${(error as Error).message}): please sign in again.`);
      throw error;
    }
  })().finally(() => (refreshing = undefined));
  return refreshing;
}

async function tokenRequest(form: Record<string, string>): Promise<{ access_token: string; refresh_token?: string; expires_in?: number }> {
  const answer = await fetch('/1.0/oauth/access_token', { method: 'POST', body: new URLSearchParams(form) });
  const body = (await answer.json().catch(() => ({}))) as { access_token?: string; error?: string | { message?: string }; error_description?: string };
  if (!answer.ok || !body.access_token) {
    const reason = body.error_description ?? (typeof body.error === 'object' ? body.error.message : body.error) ?? `HTTP ${answer.status}`;
    throw new Error(`the platform refused the token request: ${reason}`);
  }
  return body as { access_token: string; refresh_token?: string; expires_in?: number };
}
