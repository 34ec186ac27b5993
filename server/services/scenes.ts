import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { BlobStore } from '../storage/blobs.js';

/**
 * Where processing's files for the viewers are kept, a revision's scene
 * (formats/scene.ts) and plans (formats/plans.ts), side by side under `scenes/<model>/`:
 * gzipped, so they go over the wire as stored to every client that accepts gzip (every
 * browser), and are unpacked on the way for the rest. Keys ending in `.scene` (the first
 * scenes) are stored unpacked.
 */
/** A revision's scene and plans: their blob keys, or the files processing writes them to. */
export interface ProcessedFiles {
  /** The scene (formats/scene.ts). */
  scene: string;
  /** The storey plans (formats/plans.ts). */
  plans: string;
}

export const processedKeys = (modelId: string, name: string): ProcessedFiles => ({
  scene: `scenes/${modelId}/${name}.scene.gz`,
  plans: `scenes/${modelId}/${name}.plans.gz`,
});

/** The files of this process's own for a scene and plans on their way from the reader thread to blob storage. */
export const scratchFiles = (name: string): ProcessedFiles => ({
  scene: path.join(tmpdir(), `bim-scene-${process.pid}-${name}`),
  plans: path.join(tmpdir(), `bim-plans-${process.pid}-${name}`),
});

/** Stores the scratch files under `keys`; resolves with each one's size stored (gzipped) and unpacked. */
export async function storeProcessed(blobs: BlobStore, keys: ProcessedFiles, files: ProcessedFiles) {
  return { scene: await storeFile(blobs, keys.scene, files.scene), plans: await storeFile(blobs, keys.plans, files.plans) };
}

/** Removes the scratch files (those there are). */
export async function removeScratch(files: ProcessedFiles): Promise<void> {
  await Promise.all([rm(files.scene, { force: true }), rm(files.plans, { force: true })]);
}

/** Stores the file `file` under `key`; resolves with its size stored (gzipped) and unpacked. */
async function storeFile(blobs: BlobStore, key: string, file: string): Promise<{ stored: number; bytes: number }> {
  const gzip = createGzip();
  const source = createReadStream(file);
  source.on('error', (error) => gzip.destroy(error));
  const stored = await blobs.put(key, source.pipe(gzip));
  return { stored, bytes: (await stat(file)).size };
}

/** A stored scene or plans file as a client asked for it: gzipped (`encoding: 'gzip'`, `size` known) or unpacked. */
export async function processedBody(blobs: BlobStore, key: string, size: number, acceptEncoding: string | undefined): Promise<{ body: Readable; encoding?: 'gzip'; size?: number }> {
  const stored = await blobs.get(key);
  if (!key.endsWith('.gz')) return { body: stored, size };
  if (/\bgzip\b/.test(acceptEncoding ?? '')) return { body: stored, encoding: 'gzip', size };
  const gunzip = createGunzip();
  stored.on('error', (error) => gunzip.destroy(error));
  return { body: stored.pipe(gunzip) };
}
