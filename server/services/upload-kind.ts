import { Readable } from 'node:stream';
import { badRequest } from './errors.js';

/**
 * What an upload is, told by its first bytes rather than its name: LAS and LAZ start
 * with "LASF" (LAZ sets the compression bit, 0x80, of the point format at byte 104),
 * E57 with "ASTM-E57"; anything else goes to the IFC import as before, unless its name
 * ends in .las, .laz or .e57: then the scan import refuses it, saying what a scan starts
 * with (clearer than the IFC reader's complaint about a file that was never an IFC).
 */
export type UploadKind = 'ifc' | 'las' | 'laz' | 'e57';

/** Bytes the sniffing needs: LAS's point format byte is at offset 104. */
export const SNIFF_BYTES = 105;

/** The media type each kind is exported with (IANA: application/vnd.las, application/vnd.laszip, model/e57). */
export const UPLOAD_MEDIA_TYPES: Record<UploadKind, string> = {
  ifc: 'application/x-step',
  las: 'application/vnd.las',
  laz: 'application/vnd.laszip',
  e57: 'model/e57',
};

export const isScan = (kind: UploadKind) => kind !== 'ifc';

export function uploadKind(head: Uint8Array, fileName = ''): UploadKind {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 8));
  if (text === 'ASTM-E57') return 'e57';
  if (text.startsWith('LASF')) return head.length > 104 && head[104] & 0x80 ? 'laz' : 'las';
  const named = /\.(las|laz|e57)$/i.exec(fileName);
  return named ? (named[1].toLowerCase() as UploadKind) : 'ifc';
}

/** The kind of a stored upload, from the extension its key was given. */
export function kindOfKey(key: string): UploadKind {
  const extension = key.slice(key.lastIndexOf('.') + 1);
  return extension in UPLOAD_MEDIA_TYPES ? (extension as UploadKind) : 'ifc';
}

/**
 * Reads up to `n` bytes of `body` without taking them away: resolves with them and a
 * stream that still gives the whole body (the same one, the bytes put back; a new one
 * when the body was shorter and has ended).
 */
export function peek(body: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => body.off('readable', onReadable).off('end', onEnd).off('error', onError).off('close', onClose);
    const done = (ended: boolean) => {
      stop();
      const head = Buffer.concat(chunks);
      if (ended) return resolve({ head, body: Readable.from(head.length ? [head] : []) });
      body.unshift(head);
      resolve({ head: head.subarray(0, n), body });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (size < n && (chunk = body.read()) !== null) {
        chunks.push(chunk);
        size += chunk.length;
      }
      if (size >= n) done(false);
    };
    const onEnd = () => done(true);
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // A client that breaks off early may close the stream with neither an end nor an error.
    const onClose = () => onError(badRequest('The upload was broken off'));
    body.on('readable', onReadable).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
