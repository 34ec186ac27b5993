/**
 * A BCF API client for the tests: `(method, path under /bcf, body?, headers?)`; JSON bodies as JSON, strings and bytes as
 * they are. Another `prefix` makes it a client of that API (`/v2`).
 */
export type BcfAnswer = { status: number; json: any; text: string; bytes: Buffer; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

export function bcfClient(base: string, token?: string, prefix = '/bcf') {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<BcfAnswer> => {
    const raw = typeof body === 'string' || body instanceof Uint8Array;
    const init: RequestInit = {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !raw ? { 'Content-Type': 'application/json' } : {}), ...headers },
    };
    if (body !== undefined) init.body = raw ? (body as string | Uint8Array) : JSON.stringify(body);
    const answer = await fetch(`${base}${prefix}${path}`, init);
    const bytes = Buffer.from(await answer.arrayBuffer());
    const text = bytes.toString('utf8');
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, json, text, bytes, headers: answer.headers };
  };
}
