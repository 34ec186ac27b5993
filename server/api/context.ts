import type { Database } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';

/** What every route module gets: the storage and the settings (no globals). */
export interface Context {
  db: Database;
  blobs: BlobStore;
  /** Largest upload accepted (bytes); 413 beyond. */
  maxUploadBytes: number;
  /** Longest URL (path and query, bytes); 414 beyond. */
  maxUrlBytes?: number;
  /** Looks for queued jobs now (the in-process runner), when there is one. */
  pokeJobs: () => void;
  oauth: { accessTokenLifetime: number; refreshTokenLifetime: number; codeLifetime: number };
}
