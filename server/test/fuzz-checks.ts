import { readdirSync, type Dirent } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './harness.js';
import { header, type RawAnswer } from './fuzz-http.js';
import { INJECTED } from './fuzz-requests.js';

/**
 * What every answer to a bad request must be: never a 5xx; a 4xx that says what was
 * wrong, in the platform's JSON error body `{error: {code, name, message}}` (the BCF API's
 * also with its `message`; OAuth's token and revocation endpoints RFC 6749's `{error, error_description}`;
 * the sign-in pages an HTML page, being pages for people); and no header a CR/LF in the
 * request put into the answer.
 */
export type Problem = '5xx' | 'unclear 4xx' | 'header injected';

const OAUTH_PAGE = /^\/(1\.0\/oauth\/authorize|oauth2\/authorize)(\?|$)/;
const OAUTH_TOKEN = /^\/(1\.0\/oauth\/(access_token|revoke)|oauth2\/(token|revoke))(\?|$)/;

export function problemsOf(target: string, answer: RawAnswer): { problem: Problem; detail: string }[] {
  const found: { problem: Problem; detail: string }[] = [];
  const text = answer.body.toString('utf8');
  const said = `${answer.head.split('\r\n')[0]} ${JSON.stringify(text.slice(0, 300))}`;
  if (answer.status >= 500) found.push({ problem: '5xx', detail: said });
  if (answer.headers.some(([name]) => name === INJECTED.toLowerCase())) found.push({ problem: 'header injected', detail: answer.head });
  if (answer.status >= 400 && answer.status < 500) {
    const unclear = unclearBecause(target, answer, text);
    if (unclear) found.push({ problem: 'unclear 4xx', detail: `${unclear}: ${said}` });
  }
  return found;
}

const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim().length > 0;

/** Why a 4xx does not say clearly what was wrong, or undefined when it does. */
function unclearBecause(target: string, answer: RawAnswer, text: string): string | undefined {
  const type = header(answer, 'content-type') ?? '';
  if (OAUTH_PAGE.test(target) && /^text\/html/.test(type)) return /<p[^>]*>[^<]{5,}/.test(text) || text.length > 50 ? undefined : 'an empty error page';
  if (!/^application\/json/.test(type)) return `Content-Type ${type || 'missing'}, not JSON`;
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = JSON.parse(text);
  } catch {
    return 'a body that is not JSON';
  }
  if (OAUTH_TOKEN.test(target) && nonEmpty(json?.error) && nonEmpty(json?.error_description)) return undefined;
  if (typeof json?.error !== 'object' || json.error === null) return 'no `error` object';
  if (typeof json.error.code !== 'number' || !nonEmpty(json.error.name)) return '`error` without code and name';
  if (!nonEmpty(json.error.message)) return '`error` without a message';
  if (target.startsWith('/bcf/') && !nonEmpty(json.message)) return 'a BCF error without `message`';
  return undefined;
}

/**
 * Files and folders whose name holds `marker` (planted in file names with `../` and
 * absolute paths), anywhere a traversal could reach but inside `dataDir`: the temporary
 * folder, the repository, the root and its first level, the home folder.
 */
export function plantedOutside(marker: string, dataDir: string): string[] {
  const found: string[] = [];
  const inside = path.resolve(dataDir);
  const walk = (folder: string, depth: number) => {
    if (path.resolve(folder) === inside || depth < 0) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.name.includes(marker)) found.push(full);
      if (entry.isDirectory() && !entry.isSymbolicLink() && !SKIP.has(entry.name)) walk(full, depth - 1);
    }
  };
  for (const [root, depth] of [[tmpdir(), 4], [ROOT, 3], ['/', 1], [path.dirname(ROOT), 1], [homedir(), 2], [path.dirname(inside), 1]] as const) walk(root, depth);
  return [...new Set(found)];
}
const SKIP = new Set(['node_modules', '.git', 'proc', 'sys', 'dev']);
