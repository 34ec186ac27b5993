/**
 * Uploading an IFC file (or a scan: the platform tells them apart by their first bytes) as a new revision of a model: `PUT /1.0/model/import` with the
 * file as the body, through XMLHttpRequest because fetch reports no upload progress; then
 * the import's status, polled until processing has succeeded or failed. `sendFile` is
 * also how v2-api.ts sends a library file.
 */
import { accessToken, refreshAccessToken } from './auth.js';
import { errorFrom, importStatus, type ImportStatus } from './api.js';

export interface UploadProgress { sent: number; total: number }

/** A sent file's answer. */
export interface SentFile { status: number; statusText: string; text: string }

function send(method: 'PUT' | 'POST', url: string, file: File, token: string | undefined, onProgress: (p: UploadProgress) => void, networkError: string): Promise<SentFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.addEventListener('progress', (event) => onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size }));
    xhr.addEventListener('load', () => resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText }));
    xhr.addEventListener('error', () => reject(new Error(networkError)));
    xhr.addEventListener('abort', () => reject(new Error('the upload was cancelled')));
    xhr.send(file);
  });
}

/**
 * Sends a file as the body (`application/octet-stream`) with the access token, through
 * XMLHttpRequest for its upload progress; a 401 refreshes the token and sends once more.
 * Resolves with the answer, whatever its status: the caller checks it.
 */
export async function sendFile(
  method: 'PUT' | 'POST', url: string, file: File, onProgress: (p: UploadProgress) => void,
  networkError = 'the upload failed: the platform could not be reached',
): Promise<SentFile> {
  const answer = await send(method, url, file, accessToken(), onProgress, networkError);
  return answer.status === 401 ? send(method, url, file, await refreshAccessToken(), onProgress, networkError) : answer;
}

/** Sends the file; resolves with the import token. A 401 refreshes the access token and sends once more. */
export async function uploadIfc(modelId: string, file: File, comment: string, onProgress: (p: UploadProgress) => void): Promise<string> {
  const url = `/1.0/model/import?${new URLSearchParams({ model_id: modelId, file_name: file.name, comment })}`;
  const answer = await sendFile('PUT', url, file, onProgress);
  if (answer.status !== 200) throw errorFrom(answer.status, answer.statusText, answer.text);
  const { token } = JSON.parse(answer.text) as { token: string };
  return token;
}

/** Polls the import's status (each answer to `onStatus`) until it is no longer running. */
export async function followImport(token: string, onStatus: (status: ImportStatus) => void, intervalMs = 500): Promise<ImportStatus> {
  for (;;) {
    const status = await importStatus(token);
    onStatus(status);
    if (status.result !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
