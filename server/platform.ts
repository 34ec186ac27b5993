import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from './storage/database.js';
import { openBlobStore, type BlobStore } from './storage/blobs.js';
import { migrate } from './storage/migrate.js';
import { JobRunner } from './jobs/runner.js';
import { ifcImportJob } from './jobs/ifc-import.js';
import { IfcReaderThreads } from './jobs/ifc-reader.js';
import { queueStaleScenes, SCENE_JOB, sceneJob } from './jobs/scene-job.js';
import { IMPORT_JOB, POINTCLOUD_IMPORT_JOB } from './services/imports.js';
import { pointCloudImportJob } from './jobs/pointcloud-import.js';
import { convertInThread } from './jobs/pointcloud-converter.js';
import { POINTCLOUD_REFRESH_JOB, pointCloudRefreshJob, queueStalePointClouds } from './jobs/pointcloud-refresh.js';
import { countUsers, createUser } from './services/users.js';
import { createSampleProject, SAMPLE } from './services/sample-project.js';
import type { Settings } from './config.js';

/** What the platform logs once its reader threads have started and warmed up (READER_WARM_UP). */
export const READERS_WARMED_UP = 'ifc reader: threads started and warmed up';

/** The parts of a running platform process: storage, and the job runner when it runs jobs. */
export interface Platform {
  db: Database;
  blobs: BlobStore;
  runner?: JobRunner;
  close(): Promise<void>;
}

/** Opens storage (migrating it), makes the first user, starts the job runner when asked. */
export async function openPlatform(settings: Settings, options: { runJobs: boolean; log?: (line: string) => void }): Promise<Platform> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const db = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
  try {
    const applied = await migrate(db);
    if (applied.length) log(`database: applied ${applied.join(', ')}`);
  } catch (error) {
    await db.close();
    throw error;
  }
  const blobs = await openBlobStore({ dir: `${settings.dataDir}/blobs`, s3: settings.s3 });
  if ((await countUsers(db)) === 0) {
    const password = settings.admin.password ?? randomBytes(9).toString('base64url');
    const admin = await createUser(db, settings.admin.email, settings.admin.name, password);
    log(`first start: created the user ${settings.admin.email}${settings.admin.password ? '' : ` with the password ${password} (shown once)`}`);
    if (settings.sampleProject && (await createSampleProject(db, blobs, admin.id))) log(`first start: importing the generated ${SAMPLE.variant} into "${SAMPLE.project}"`);
  }
  let runner: JobRunner | undefined;
  const reader = new IfcReaderThreads({ warmUp: settings.readerWarmUp, parallelMaxBytes: settings.parallelReadMaxBytes });
  if (options.runJobs) {
    // In the background: a file that comes meanwhile waits for the threads either way.
    if (settings.readerWarmUp) reader.start().then(() => log(READERS_WARMED_UP), (error: Error) => log(`ifc reader: ${error.message}`));
    const read = reader.read.bind(reader);
    const handlers = {
      [IMPORT_JOB]: ifcImportJob(db, blobs, { maxProcessBytes: settings.maxProcessBytes, read }),
      [POINTCLOUD_IMPORT_JOB]: pointCloudImportJob(db, blobs, { convert: (job) => convertInThread(job) }),
      [SCENE_JOB]: sceneJob(db, blobs, read),
      [POINTCLOUD_REFRESH_JOB]: pointCloudRefreshJob(db, blobs, { convert: (job) => convertInThread(job) }),
    };
    runner = new JobRunner(db, handlers, { leaseMs: settings.jobLeaseMs, pollMs: settings.jobPollMs });
    const stale = await queueStaleScenes(db);
    if (stale) log(`scenes: ${stale} revision(s) to process again (scene format version changed, or processed before scenes or plans)`);
    const staleClouds = await queueStalePointClouds(db);
    if (staleClouds) log(`point clouds: ${staleClouds} revision(s) to convert again (point cloud format version changed)`);
    runner.start();
  }
  return {
    db,
    blobs,
    runner,
    async close() {
      await runner?.stop();
      await reader.close();
      await db.close();
    },
  };
}
