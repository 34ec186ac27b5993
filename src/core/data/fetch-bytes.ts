import { ViewerError } from '../types.js';

/**
 * Fetches a URL as bytes, reporting download progress, and turns HTTP and network
 * failures into ViewerErrors that say what went wrong (401 with the server's message).
 */
export async function fetchBytes(url: string, onProgress?: (fraction: number) => void): Promise<ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    throw new ViewerError('network', `Could not fetch ${url}: ${(e as Error).message}`);
  }
  if (!response.ok) {
    const detail = await errorMessage(response);
    throw new ViewerError('network', `${url} answered ${response.status}${response.statusText ? ' ' + response.statusText : ''}${detail ? `: ${detail}` : ''}`);
  }
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !onProgress || !total) return response.arrayBuffer();
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    onProgress(Math.min(1, received / total));
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes.buffer;
}

/** The message of a JSON error body (`{error: {message}}` or `{message}`), or its first line of text. */
async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const json = JSON.parse(text);
    return String(json?.error?.message ?? json?.message ?? json?.error ?? '').slice(0, 300);
  } catch {
    return text.split('\n')[0].slice(0, 200);
  }
}
