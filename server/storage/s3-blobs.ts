import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, S3Client, NoSuchKey } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BlobNotFound, streamToBuffer, type BlobFile, type BlobSettings, type BlobStore } from './blobs.js';

/**
 * Blobs in an S3-compatible bucket (AWS SDK v3). Uploads stream in parts (lib-storage's
 * Upload), so a 2 GB file never sits whole in the API process. Credentials come from the
 * SDK's usual chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, profiles, roles).
 */
export class S3Blobs implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: NonNullable<BlobSettings['s3']>) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region ?? 'us-east-1',
      forcePathStyle: settings.forcePathStyle ?? !!settings.endpoint,
    });
  }

  async put(key: string, body: Readable): Promise<number> {
    let size = 0;
    let bodyError: Error | undefined;
    body.on('data', (chunk: Buffer) => (size += chunk.length));
    body.on('error', (error) => (bodyError ??= error));
    try {
      await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: body } }).done();
    } catch (error) {
      // When the body failed (over the upload limit: a 413), that is the answer; Upload's
      // clean-up of the parts sent so far can fail after it (s3rver has no abort) and hide it.
      throw bodyError ?? error;
    }
    return size;
  }

  async get(key: string, range?: string): Promise<Readable> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
      return answer.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw new BlobNotFound(key);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    return streamToBuffer(await this.get(key));
  }

  /** GetObject with a Range: only those bytes cross the network. */
  getRange(key: string, start: number, end: number): Promise<Readable> {
    return this.get(key, `bytes=${start}-${end}`);
  }

  /** A scratch copy, streamed down (never whole in memory). */
  async toFile(key: string, scratchDir: string): Promise<BlobFile> {
    const file = path.join(scratchDir, `bim-blob-${randomUUID()}${path.extname(key)}`);
    const release = () => rm(file, { force: true });
    try {
      await pipeline(await this.get(key), createWriteStream(file));
    } catch (error) {
      await release();
      throw error;
    }
    return { path: file, release };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
