import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BlobFile, BlobStore } from '../storage/blobs.js';
import type { ConvertJob, ConvertResult } from './pointcloud-converter.js';

/** Converts a scan on disk into an octree file (pointcloud-converter.ts convertInThread, or another for tests). */
export type Convert = (job: ConvertJob) => Promise<ConvertResult>;

/**
 * A stored scan converted into a stored point cloud: the scan as a file on disk (the
 * blob's own, or a scratch copy from S3), converted into `<scratch>/output.bimcloud`,
 * stored under `key` as written. Every scratch file lives in the folder `scratch` (one
 * per attempt), removed at the end, whatever happened.
 */
export async function convertScan(blobs: BlobStore, scanKey: string, key: string, scratch: string, name: string, convert: Convert): Promise<ConvertResult & { size: number }> {
  await mkdir(scratch, { recursive: true });
  let input: BlobFile | undefined;
  try {
    input = await blobs.toFile(scanKey, scratch);
    const output = path.join(scratch, 'output.bimcloud');
    const result = await convert({ input: input.path, output, name, scratchDir: scratch });
    return { ...result, size: result.points > 0 ? await blobs.put(key, createReadStream(output)) : 0 };
  } finally {
    await input?.release();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The scratch folder of a job's attempt, under `root`; `earlier` removes those of the attempts before (a killed process left them). */
export function attemptFolder(root: string, name: string, attempt: number) {
  const of = (n: number) => path.join(root, `bim-pointcloud-${name}-${n}`);
  return {
    path: of(attempt),
    async removeEarlier() {
      for (let n = 1; n < attempt; n++) await rm(of(n), { recursive: true, force: true });
    },
  };
}
