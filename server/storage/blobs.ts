import type { Readable } from 'node:stream';

/**
 * Where files live (uploads as sent, processed formats): local disk (local-blobs.ts) by
 * default, any S3-compatible service (s3-blobs.ts) when S3_BUCKET is set. Keys are
 * paths made by the services ('uploads/<token>.ifc'), never from user input.
 */
export interface BlobStore {
  /** Streams `body` into `key`; resolves with its size. A body that errors leaves nothing behind. */
  put(key: string, body: Readable): Promise<number>;
  /** The blob's bytes as a stream; rejects with a BlobNotFound when there is none. */
  get(key: string): Promise<Readable>;
  /** The whole blob in memory (processing: web-ifc reads a model whole anyway). */
  read(key: string): Promise<Buffer>;
  /** Bytes `start` to `end` (both included, inside the blob) as a stream: HTTP range requests of processed point clouds. */
  getRange(key: string, start: number, end: number): Promise<Readable>;
  /**
   * The blob as a file on this machine, for readers that need random access to a file
   * too big for memory (a 2 GB scan): local blobs give their own file (never to be
   * written), S3 streams a copy down into `scratchDir`. `release()` removes that copy.
   */
  toFile(key: string, scratchDir: string): Promise<BlobFile>;
  delete(key: string): Promise<void>;
}

export interface BlobFile {
  path: string;
  release(): Promise<void>;
}

export class BlobNotFound extends Error {
  constructor(key: string) {
    super(`No blob ${key}`);
  }
}

export interface BlobSettings {
  /** Local folder (default store). */
  dir: string;
  s3?: { bucket: string; endpoint?: string; region?: string; forcePathStyle?: boolean };
}

export async function openBlobStore(settings: BlobSettings): Promise<BlobStore> {
  if (settings.s3) {
    const { S3Blobs } = await import('./s3-blobs.js');
    return new S3Blobs(settings.s3);
  }
  const { LocalBlobs } = await import('./local-blobs.js');
  return new LocalBlobs(settings.dir);
}

/** Reads a stream whole. */
export async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
