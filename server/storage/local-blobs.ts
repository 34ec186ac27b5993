import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { BlobNotFound, type BlobFile, type BlobStore } from './blobs.js';

/** Blobs as files under one folder. Written to a temporary name and renamed: never seen half-written. */
export class LocalBlobs implements BlobStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Bad blob key ${key}`);
    return file;
  }

  async put(key: string, body: Readable): Promise<number> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${randomUUID()}.partial`;
    const out = createWriteStream(partial);
    try {
      await pipeline(body, out);
      await rename(partial, file);
    } catch (error) {
      // The file opens asynchronously: removed before it closed, it could appear again after.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(partial, { force: true });
      throw error;
    }
    return (await stat(file)).size;
  }

  async get(key: string): Promise<Readable> {
    return createReadStream((await this.toFile(key)).path);
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.file(key));
    } catch {
      throw new BlobNotFound(key);
    }
  }

  async getRange(key: string, start: number, end: number): Promise<Readable> {
    await this.toFile(key);
    return createReadStream(this.file(key), { start, end });
  }

  /** The blob's own file: nothing is copied. */
  async toFile(key: string): Promise<BlobFile> {
    const file = this.file(key);
    try {
      await stat(file);
    } catch {
      throw new BlobNotFound(key);
    }
    return { path: file, release: async () => {} };
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}
