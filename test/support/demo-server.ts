// The demo backend (demo/server), over HTTP as the demo pages use it.

/** A 3D data URL's manifest. */
export interface Manifest {
  models: { id: string; name: string; revision: number; objectIdBase: string; formats: { type: string; url: string }[]; products?: string }[];
}

/** POST .../viewer3d/token for a project; `body` as JSON, a string as it is (to send bad JSON). */
export async function postToken(project: string, body?: unknown): Promise<Response> {
  return fetch(`/v2/projects/${encodeURIComponent(project)}/viewer3d/token`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The first bytes of a response, without downloading all of it. */
export async function head(res: Response, length = 64): Promise<string> {
  const reader = res.body!.getReader();
  let text = '';
  const decoder = new TextDecoder();
  while (text.length < length) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}
