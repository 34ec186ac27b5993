import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { DEFAULT_PROJECT, MODELS, PROJECTS, findProject } from './catalogue.js';
import type { TokenStore } from './tokens.js';
import type { Middleware } from './http.js';
import { VIEWER2D, VIEWER3D, tokenUrl } from './token-routes.js';

/**
 * The demo pages, rendered by the backend as an application's server would render its
 * own pages: a page asks for `{{viewer3d-token-url}}` and gets a fresh token URL baked
 * into its HTML (what old pages using `data-url` look like). Placeholders:
 *
 *   {{viewer3d-token-url}}  a new 3D token URL for the page's ?project= (default "demo")
 *   {{viewer2d-token-url}}  a new 2D token URL (60 minutes) for the same project
 *   {{project}}             that project's id
 *   {{project-options}}     <option>s for every project, the page's project selected
 *   {{attribution}}         the sample models' sources and licences
 *
 * `/` redirects to `/demo/`.
 */

export type HtmlTransform = (url: string, html: string, originalUrl?: string) => Promise<string>;

export function demoPages(root: string, store: TokenStore, transform?: () => HtmlTransform | undefined): Middleware {
  const demoDir = resolve(root, 'demo');
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/' && url.search === '') {
      res.writeHead(302, { Location: '/demo/' });
      res.end();
      return;
    }
    if (!url.pathname.startsWith('/demo/')) return next();
    const rest = url.pathname === '/demo/' ? 'index.html' : url.pathname.slice('/demo/'.length);
    if (!/^[\w-]+\.html$/.test(rest)) return next();
    const file = join(demoDir, rest);
    if (!file.startsWith(demoDir + sep)) return next();
    readFile(file, 'utf8')
      .then(async (template) => {
        let html = fillPlaceholders(template, req, url, store);
        // Pages with module scripts go through vite; the script-tag pages stay exactly
        // as a backend would send them (no injected dev client).
        const viteTransform = transform?.();
        if (viteTransform && /<script[^>]+type="module"/.test(html)) html = await viteTransform(`/demo/${rest}`, html, req.url);
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Length': Buffer.byteLength(html),
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : html);
      })
      .catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? next() : next(error)));
  };
}

export function fillPlaceholders(template: string, req: IncomingMessage, url: URL, store: TokenStore): string {
  const project = findProject(url.searchParams.get('project') ?? '') ?? findProject(DEFAULT_PROJECT)!;
  return template.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (whole, name: string) => {
    switch (name) {
      case 'viewer3d-token-url': {
        const { token } = store.issue('viewer3d', project.id, project.models);
        return escapeHtml(tokenUrl(req, VIEWER3D, project.id, token));
      }
      case 'viewer2d-token-url': {
        const { token } = store.issue('viewer2d', project.id, project.models);
        return escapeHtml(tokenUrl(req, VIEWER2D, project.id, token));
      }
      case 'project':
        return escapeHtml(project.id);
      case 'project-options':
        return PROJECTS.map(
          (p) => `<option value="${escapeHtml(p.id)}"${p.id === project.id ? ' selected' : ''}>${escapeHtml(p.name)}</option>`,
        ).join('');
      case 'attribution':
        return escapeHtml(attributionText());
      default:
        return whole;
    }
  });
}

/** The demo footer's line: every sample model with its source and licence. */
export function attributionText(): string {
  return 'Sample models: ' + MODELS.map((m) => `${m.name} (${m.credit})`).join(' · ') + '.';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
