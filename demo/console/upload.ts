/**
 * Uploading an IFC file as a new revision of a model: `PUT /1.0/model/import` with the
 * file as the body, through XMLHttpRequest because fetch reports no upload progress; then
 * the import's status, polled until processing has succeeded or failed.
 */
import { accessToken, refreshAccessToken } from './auth.js';
import { errorFrom, importStatus, type ImportStatus } from './api.js';

export interface UploadProgress { sent: number; total: number }

function put(url: string, file: File, token: string | undefined, onProgress: (p: UploadProgress) => void): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.addEventListener('progress', (event) => onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size }));
    xhr.addEventListener('load', () => resolve(xhr));
    xhr.addEventListener('error', () => reject(new Error('the upload failed: the platform could not be reached')));
    xhr.addEventListener('abort', () => reject(new Error('the upload was cancelled')));
    xhr.send(file);
  });
}

/** Sends the file; resolves with the import token. A 401 refreshes the access token and sends once more. */
export async function uploadIfc(modelId: string, file: File, comment: string, onProgress: (p: UploadProgress) => void): Promise<string> {
  const url = `/1.0/model/import?${new URLSearchParams({ model_id: modelId, file_name: file.name, comment })}`;
  let xhr = await put(url, file, accessToken(), onProgress);
  if (xhr.status === 401) xhr = await put(url, file, await refreshAccessToken(), onProgress);
  if (xhr.status !== 200) throw errorFrom(xhr.status, xhr.statusText, xhr.responseText);
  const { token } = JSON.parse(xhr.responseText) as { token: string };
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
