import { Worker } from 'node:worker_threads';
import type { ChunkJob, ChunkResult } from './chunk-job.js';
import type { Present } from './records.js';

type Reply = ({ kind: 'done'; id: number } & ChunkResult) | { kind: 'finished' } | { kind: 'error'; message: string };

/**
 * Worker threads that index chunks, a chunk at a time each (the chunks are the memory
 * bound: one in memory per thread). Each writes a chunk's nodes into the room the chunk
 * takes in the output file. The converter's own thread indexes chunks too.
 */
export class IndexPool {
  /** Each worker's jobs in flight: two, so it starts the next without waiting for this thread. */
  private readonly workers: { worker: Worker; busy: number }[] = [];
  private readonly queue: { job: ChunkJob; resolve: (r: ChunkResult) => void; reject: (e: Error) => void }[] = [];
  private readonly pending = new Map<number, { resolve: (r: ChunkResult) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(size: number, outPath: string, present: Present) {
    const ts = import.meta.url.endsWith('.ts');
    const module = new URL(`./index-worker.${ts ? 'ts' : 'js'}`, import.meta.url).href;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./index-thread.mjs', import.meta.url), { workerData: { module, outPath, present } });
      const entry = { worker, busy: 0 };
      worker.on('message', (reply: Reply) => this.onReply(entry, reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => code !== 0 && this.fail(new Error(`An index worker stopped (exit code ${code})`)));
      this.workers.push(entry);
    }
  }

  /** Indexes a chunk in the first free worker. */
  run(job: ChunkJob): Promise<ChunkResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Resolves once every worker has written and closed its file. */
  async finish(): Promise<void> {
    await Promise.all(
      this.workers.map(
        ({ worker }) =>
          new Promise<void>((resolve, reject) => {
            worker.removeAllListeners('message');
            worker.on('message', (reply: Reply) => {
              if (reply.kind === 'finished') resolve();
              else if (reply.kind === 'error') reject(new Error(reply.message));
            });
            worker.on('error', reject);
            worker.postMessage({ kind: 'finish' });
          }),
      ),
    );
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }

  private dispatch(): void {
    for (const entry of this.workers) {
      while (entry.busy < 2 && this.queue.length) {
        const { job, resolve, reject } = this.queue.shift()!;
        const id = this.nextId++;
        this.pending.set(id, { resolve, reject });
        entry.busy++;
        entry.worker.postMessage({ kind: 'chunk', id, job });
      }
    }
  }

  private onReply(entry: { busy: number }, reply: Reply): void {
    if (reply.kind === 'error') return this.fail(new Error(reply.message));
    if (reply.kind !== 'done') return;
    entry.busy--;
    const waiting = this.pending.get(reply.id)!;
    this.pending.delete(reply.id);
    waiting.resolve({ nodes: reply.nodes, root: reply.root });
    this.dispatch();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const { reject } of this.pending.values()) reject(error);
    for (const { reject } of this.queue) reject(error);
    this.pending.clear();
    this.queue.length = 0;
  }
}
