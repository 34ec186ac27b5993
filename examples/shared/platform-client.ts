/**
 * What the example apps (React, Vue, Angular) ask of the platform, framework-free:
 * signing in with OAuth 2.0 (authorization code + PKCE, as a public client: no secret),
 * the user's projects, the viewers' token URLs and a BCF topic made from the 3D view.
 *
 * The app is served on the platform's origin or behind a proxy that forwards the API's
 * paths to it (examples/shared/serve.mjs; the frameworks' dev servers, docs/frameworks/):
 * every path here is relative to the page's origin.
 *
 *   const platform = new PlatformClient({ clientId: 'example-react' });
 *   if (!(await platform.completeSignIn()) && !platform.signedIn) await platform.signIn();
 *   const projects = await platform.projects();
 */
import type { BcfViewpoint } from 'bim-viewers';

export interface Project { id: string; name: string }
export interface Topic { guid: string; title: string; platform_issue_number?: number }

interface Tokens { access_token: string; refresh_token?: string }

export class PlatformClient {
  readonly clientId: string;
  /** The registered callback: by default the app's own first page. */
  readonly redirectUri: string;
  private readonly key: string;

  constructor({ clientId, redirectUri = new URL('/', location.href).href }: { clientId: string; redirectUri?: string }) {
    this.clientId = clientId;
    this.redirectUri = redirectUri;
    this.key = `${clientId}.tokens`;
  }

  get signedIn(): boolean {
    return this.tokens() !== undefined;
  }

  /** Goes to the platform's sign-in page, which comes back to `redirectUri` with ?code=&state=. */
  async signIn(): Promise<void> {
    const verifier = randomText(32);
    const state = randomText(16);
    sessionStorage.setItem(`${this.clientId}.pending`, JSON.stringify({ verifier, state }));
    const query = new URLSearchParams({
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      response_type: 'code',
      state,
      code_challenge: base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)))),
      code_challenge_method: 'S256',
    });
    location.assign(`/1.0/oauth/authorize?${query}`);
  }

  /** On the way back from the sign-in page: trades the code for tokens. False when this page load is no such answer. */
  async completeSignIn(): Promise<boolean> {
    const params = new URLSearchParams(location.search);
    if (!params.has('code') && !params.has('error')) return false;
    history.replaceState(null, '', location.pathname);
    const pending = JSON.parse(sessionStorage.getItem(`${this.clientId}.pending`) ?? 'null') as { verifier: string; state: string } | null;
    sessionStorage.removeItem(`${this.clientId}.pending`);
    if (params.has('error')) throw new Error(`Sign-in failed: ${params.get('error_description') ?? params.get('error')}`);
    if (!pending || params.get('state') !== pending.state) throw new Error('Sign-in failed: the answer does not belong to a sign-in started here');
    await this.tokenRequest({ grant_type: 'authorization_code', client_id: this.clientId, code: params.get('code')!, code_verifier: pending.verifier, redirect_uri: this.redirectUri });
    return true;
  }

  signOut(): void {
    sessionStorage.removeItem(this.key);
  }

  projects(): Promise<Project[]> {
    return this.call('GET', '/1.0/projects');
  }

  /** The 3D and 2D viewers' token URLs for the latest revision of every model of a project (seed 002). */
  async viewerUrls(projectId: string): Promise<{ viewer3d: string; viewer2d: string }> {
    const token = (kind: string) => this.call<{ url: string }>('POST', `/v2/projects/${encodeURIComponent(projectId)}/${kind}/token`, {});
    const [viewer3d, viewer2d] = await Promise.all([token('viewer3d'), token('viewer2d')]);
    return { viewer3d: viewer3d.url, viewer2d: viewer2d.url };
  }

  /** A BCF topic (BCF API 3.0) on the project's first issue board (made when it has none), with the viewpoint. */
  async createTopic(projectId: string, title: string, viewpoint: BcfViewpoint): Promise<Topic> {
    const boards = await this.call<{ project_id: string }[]>('GET', `/bcf/3.0/projects?platform_project_id=${encodeURIComponent(projectId)}`);
    const board = boards[0] ?? (await this.call<{ project_id: string }>('POST', '/bcf/2.0/projects', { name: 'Issues', platform_project_id: projectId }));
    const topics = `/bcf/3.0/projects/${encodeURIComponent(board.project_id)}/topics`;
    const topic = await this.call<Topic>('POST', topics, { title });
    await this.call('POST', `${topics}/${encodeURIComponent(topic.guid)}/viewpoints`, viewpoint);
    return topic;
  }

  private tokens(): Tokens | undefined {
    const tokens = JSON.parse(sessionStorage.getItem(this.key) ?? 'null') as Tokens | null;
    return tokens?.access_token ? tokens : undefined;
  }

  private async tokenRequest(form: Record<string, string>): Promise<void> {
    const answer = await fetch('/1.0/oauth/access_token', { method: 'POST', body: new URLSearchParams(form) });
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok || !body.access_token) throw new Error(`The platform refused the sign-in: ${body.error_description ?? body.error?.message ?? body.error ?? answer.status}`);
    sessionStorage.setItem(this.key, JSON.stringify({ access_token: body.access_token, refresh_token: body.refresh_token }));
  }

  /** A JSON call with the access token; a 401 refreshes it once. Errors carry the platform's message. */
  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const send = () => fetch(path, {
      method,
      headers: { Authorization: `Bearer ${this.tokens()?.access_token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let answer = await send();
    const refreshToken = this.tokens()?.refresh_token;
    if (answer.status === 401 && refreshToken) {
      await this.tokenRequest({ grant_type: 'refresh_token', client_id: this.clientId, refresh_token: refreshToken }).catch(() => this.signOut());
      answer = await send();
    }
    const text = await answer.text();
    if (!answer.ok) {
      const error = (() => { try { return JSON.parse(text).error; } catch { return undefined; } })();
      throw new Error(`${method} ${path}: ${error?.message ?? error ?? answer.status}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomText(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}
