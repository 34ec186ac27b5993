import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Everything the platform reads from its environment, in one place (README, "The platform"). */
export interface Settings {
  host: string;
  /** 0 picks a free port (tests); the address is printed either way. */
  port: number;
  /** PGlite's data and the local blob store live here unless DATABASE_URL / S3_BUCKET say otherwise. */
  dataDir: string;
  databaseUrl?: string;
  s3?: { bucket: string; endpoint?: string; region?: string };
  maxUploadBytes: number;
  /** Longest URL (path and query) in bytes: 414 beyond (api/refused-requests.ts). */
  maxUrlBytes: number;
  /**
   * Files above this fail processing at once with `too large to process`. 512 MiB:
   * office-500k (452 MB) peaks at 5.0 GB in two threads (3.8 in one), most of it
   * web-ifc's memory, which ends at 4 GB (README, "The platform").
   */
  maxProcessBytes: number;
  /**
   * Files up to this size are read by the two IFC reader threads at once, larger ones by
   * one: about twice the time, less memory (jobs/ifc-reader.ts). By default
   * maxProcessBytes: every file processed is read in two threads.
   */
  parallelReadMaxBytes: number;
  /** 'inline': this process also runs jobs (the default); 'off': API only, jobs run in `npm run worker`. */
  jobs: 'inline' | 'off';
  jobLeaseMs: number;
  jobPollMs: number;
  /**
   * Start the IFC reader threads with the process that runs jobs, each reading the generated
   * house a few times (jobs/warm-up.ts), so that the first upload is read by hot code
   * (READER_WARM_UP=0: threads start on the first file, cold; the tests' servers).
   */
  readerWarmUp: boolean;
  /** The first user, created when there is none. */
  admin: { email: string; password?: string; name: string };
  oauth: { accessTokenLifetime: number; refreshTokenLifetime: number; codeLifetime: number };
  /**
   * Per window and client IP (api/rate-limits.ts): failed sign-ins, failed token requests,
   * viewer tokens issued. Only failures count for the first two, so the test suite, which
   * signs in from 127.0.0.1 all the time, is held up only by its own wrong passwords.
   */
  rateLimits: { signIn: number; token: number; viewerToken: number; windowMs: number };
  /** Fastify's (pino's) log level: errors by default; 'info' logs every request. */
  logLevel: string;
  /** Serve the viewers' demo pages and the console (the repository's dist/ and demo/). */
  servePages: boolean;
  /** Create the sample project from the generated building on first start. */
  sampleProject: boolean;
  /**
   * Single-page apps registered (or updated) at start as public OAuth clients, from
   * PUBLIC_CLIENTS=`id=callback ...` (`npm start` passes the example apps, examples/).
   */
  publicClients: { id: string; redirectUri: string }[];
  /** How long SIGTERM waits for requests and jobs under way before the process ends anyway (stop-on-signals.ts). */
  stopWaitMs: number;
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GB = 1024 ** 3;
/** MAX_URL_BYTES's default: 8 KiB, as most proxies allow; a BCF `$filter` of 4000 plain characters fits. */
export const DEFAULT_MAX_URL_BYTES = 8 * 1024;

function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, not ${raw}`);
  return value;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const jobs = env.JOBS ?? 'inline';
  if (jobs !== 'inline' && jobs !== 'off') throw new Error(`JOBS must be inline or off, not ${jobs}`);
  const maxProcessBytes = number(env, 'MAX_PROCESS_BYTES', 512 * 1024 ** 2);
  return {
    host: env.HOST ?? '127.0.0.1',
    port: number(env, 'PORT', 3000),
    dataDir: path.resolve(env.DATA_DIR ?? path.join(ROOT, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    s3: env.S3_BUCKET ? { bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT || undefined, region: env.S3_REGION || undefined } : undefined,
    maxUploadBytes: number(env, 'MAX_UPLOAD_BYTES', 2 * GB),
    maxUrlBytes: number(env, 'MAX_URL_BYTES', DEFAULT_MAX_URL_BYTES),
    maxProcessBytes,
    parallelReadMaxBytes: number(env, 'PARALLEL_READ_MAX_BYTES', maxProcessBytes),
    jobs,
    jobLeaseMs: number(env, 'JOB_LEASE_MS', 60_000),
    jobPollMs: number(env, 'JOB_POLL_MS', 1_000),
    readerWarmUp: env.READER_WARM_UP !== '0',
    admin: { email: env.ADMIN_EMAIL ?? 'admin@example.com', password: env.ADMIN_PASSWORD || undefined, name: env.ADMIN_NAME ?? 'Administrator' },
    oauth: {
      accessTokenLifetime: number(env, 'ACCESS_TOKEN_LIFETIME', 3600),
      refreshTokenLifetime: number(env, 'REFRESH_TOKEN_LIFETIME', 14 * 24 * 3600),
      codeLifetime: number(env, 'AUTHORIZATION_CODE_LIFETIME', 60),
    },
    rateLimits: {
      signIn: number(env, 'RATE_LIMIT_SIGN_IN', 30),
      token: number(env, 'RATE_LIMIT_TOKEN', 60),
      viewerToken: number(env, 'RATE_LIMIT_VIEWER_TOKEN', 300),
      windowMs: number(env, 'RATE_LIMIT_WINDOW_MS', 60_000),
    },
    logLevel: env.LOG_LEVEL ?? 'error',
    servePages: env.SERVE_PAGES !== '0',
    sampleProject: env.SAMPLE_PROJECT !== '0',
    publicClients: publicClients(env.PUBLIC_CLIENTS ?? ''),
    stopWaitMs: number(env, 'STOP_WAIT_MS', 20_000),
  };
}

function publicClients(raw: string): Settings['publicClients'] {
  return raw.split(/\s+/).filter(Boolean).map((pair) => {
    const [id, redirectUri] = pair.split(/=(.*)/s);
    if (!id || !redirectUri) throw new Error(`PUBLIC_CLIENTS takes id=callback pairs, not ${pair}`);
    return { id, redirectUri };
  });
}
