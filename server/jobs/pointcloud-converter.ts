import { Worker } from 'node:worker_threads';

/** A heap big enough for the converter's chunks (it works out of core: a scan is never whole in memory). */
const MAX_HEAP_MB = 8192;

export interface ConvertJob {
  /** The scan on disk (E57, LAS or LAZ). */
  input: string;
  /** Where the octree file (application/vnd.platform.pointcloud) is written. */
  output: string;
  /** The cloud's name in its metadata: the uploaded file's name. */
  name: string;
  /** The converter's scratch files go here. */
  scratchDir: string;
}

export interface ConvertResult {
  points: number;
  format: 'las' | 'laz' | 'e57';
}

/** Why a scan was refused: the reader's reason (point-reader.ts PointCloudError), or null when the cause is not the file. */
export class ConvertError extends Error {
  constructor(
    readonly reason: string | null,
    message: string,
  ) {
    super(message);
  }
}

type Message = { kind: 'progress'; fraction: number } | ({ kind: 'done' } & ConvertResult) | { kind: 'error'; reason: string | null; message: string };

/**
 * Converts a scan in a worker thread of its own (convert-pointcloud-thread.ts), so the
 * API process stays responsive; a thread per file, ended after it (conversion takes far
 * longer than starting one). Rejects with a ConvertError; a thread that dies (out of
 * memory) is one too, `too large to process`.
 */
export function convertInThread(job: ConvertJob, onProgress?: (fraction: number) => void): Promise<ConvertResult> {
  const worker = new Worker(new URL('./thread-entry.mjs', import.meta.url), {
    workerData: { module: new URL('./convert-pointcloud-thread.ts', import.meta.url).href, job },
    resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB },
  });
  return new Promise<ConvertResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      fn();
    };
    worker.on('message', (message: Message) => {
      if (message.kind === 'progress') onProgress?.(message.fraction);
      else if (message.kind === 'done') settle(() => resolve({ points: message.points, format: message.format }));
      else settle(() => reject(new ConvertError(message.reason, message.message)));
    });
    worker.on('error', (error) => {
      const memory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|Array buffer allocation failed/i.test(error.message);
      settle(() => reject(new ConvertError(memory ? 'too large' : null, memory ? `too large to process: ${error.message}` : error.message)));
    });
    worker.on('exit', (code) => settle(() => reject(new ConvertError(null, `The point cloud converter stopped (exit code ${code})`))));
  });
}
