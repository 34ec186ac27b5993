import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database } from '../storage/database.js';
import { release, take, renew, type Job } from './queue.js';

/** Does one kind of job; `worker` is the runner's name, for queue.finish. */
export type JobHandler = (job: Job, worker: string) => Promise<void>;

export interface RunnerSettings {
  /** How long a taken job is this runner's without a renewal. */
  leaseMs: number;
  /** How often to look for work when there was none. */
  pollMs: number;
}

/**
 * Takes jobs from the queue and runs them one at a time (processing is CPU-bound; on two
 * cores one at a time per process). Runs inside the API process by default and on its
 * own at scale (jobs/worker-main.ts), always with the same code.
 */
export class JobRunner {
  readonly name = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopped = false;
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly db: Database,
    private readonly handlers: Record<string, JobHandler>,
    private readonly settings: RunnerSettings,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for work now (after an enqueue in this process) instead of at the next poll. */
  poke(): void {
    this.wake?.();
  }

  /** Stops taking jobs and waits for the running one. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poke();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let job: Job | undefined;
      try {
        job = await take(this.db, this.name, this.settings.leaseMs);
      } catch (error) {
        console.error(`job queue: ${(error as Error).message}`);
      }
      if (job) await this.runOne(job);
      else await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.settings.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async runOne(job: Job): Promise<void> {
    const handler = this.handlers[job.kind];
    const heartbeat = setInterval(() => void renew(this.db, job, this.name, this.settings.leaseMs).catch(() => {}), this.settings.leaseMs / 3);
    try {
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}`);
      await handler(job, this.name);
    } catch (error) {
      // The handler records the failures it expects; anything else is tried again, up to queue.MAX_ATTEMPTS.
      const message = (error as Error).message;
      console.error(`job ${job.id} (${job.kind}), attempt ${job.attempts}: ${message}`);
      await release(this.db, job, this.name, message).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }
}
