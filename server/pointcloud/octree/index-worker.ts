import { parentPort, workerData } from 'node:worker_threads';
import { runChunkJob, type ChunkJob } from './chunk-job.js';
import { NodeWriter } from './node-writer.js';
import type { Present } from './records.js';
import { Splitter } from './subsample.js';

/**
 * A thread that indexes chunks (index-pool.ts starts them): each chunk's nodes go into its
 * region of the output file; its root's points go back to the converter.
 */
const port = parentPort!;
const { outPath, present } = workerData as { outPath: string; present: Present };
const writer = new NodeWriter(outPath, present);
const splitter = new Splitter();

port.on('message', (message: { kind: 'chunk'; id: number; job: ChunkJob } | { kind: 'finish' }) => {
  try {
    if (message.kind === 'finish') {
      writer.finish();
      port.postMessage({ kind: 'finished' });
      return;
    }
    const { nodes, root } = runChunkJob(message.job, writer, splitter);
    port.postMessage({ kind: 'done', id: message.id, nodes, root }, [root.records.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ kind: 'error', message: (error as Error).message });
  }
});
