import { ViewerError } from '../types.js';

/**
 * The largest file the viewer takes. Measured (`npm run bench:largest`, README): a 2.0 GB
 * IFC loads; a 4 GB one is more than a page can download into memory, and web-ifc's
 * memory ends at 4 GB. A larger file fails at once, before its download, as `too large`.
 */
export const MAX_FILE_BYTES = 2 ** 31;

/** The error of a file over MAX_FILE_BYTES (or one the browser could not hold). */
export function tooLarge(url: string, bytes: number | null, detail = ''): ViewerError {
  const size = bytes ? ` (${(bytes / 1e9).toFixed(2)} GB)` : '';
  return new ViewerError('ifc', `${url} is too large${size}: the viewer loads files of up to ${MAX_FILE_BYTES / 2 ** 30} GB${detail ? ` (${detail})` : ''}`);
}

/** Fetches a URL, turning HTTP and network failures into ViewerErrors that say what went wrong (401 with the server's message). */
export async function fetchResponse(url: string): Promise<Response> {
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
  return response;
}

/**
 * Fetches a URL as bytes, reporting download progress (fetchResponse's errors). The body
 * goes straight into one buffer of the announced size (no second copy of a big file); a
 * file over MAX_FILE_BYTES is refused as `too large`.
 */
export async function fetchBytes(url: string, onProgress: (fraction: number) => void = () => {}, response?: Response): Promise<ArrayBuffer> {
  response ??= await fetchResponse(url);
  // The announced size: of the bytes on the wire, which compression makes smaller than the file.
  const total = Number(response.headers.get('content-length')) || 0;
  if (total > MAX_FILE_BYTES) {
    void response.body?.cancel();
    throw tooLarge(url, total);
  }
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  let bytes = new Uint8Array(total || 1 << 20);
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.length > bytes.length) {
        if (received + value.length > MAX_FILE_BYTES) throw tooLarge(url, null, `over ${MAX_FILE_BYTES / 2 ** 30} GB received`);
        const grown = new Uint8Array(Math.min(MAX_FILE_BYTES, Math.max(bytes.length * 2, received + value.length)));
        grown.set(bytes.subarray(0, received));
        bytes = grown;
      }
      bytes.set(value, received);
      received += value.length;
      if (total) onProgress(Math.min(1, received / total));
    }
  } catch (e) {
    void reader.cancel().catch(() => undefined);
    if (e instanceof ViewerError) throw e;
    if (e instanceof RangeError) throw tooLarge(url, total || received, 'the browser could not hold it');
    throw new ViewerError('network', `Could not download ${url}: ${(e as Error).message}`);
  }
  return received === bytes.length ? bytes.buffer : bytes.slice(0, received).buffer;
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
