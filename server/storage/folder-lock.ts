import lockfile from 'proper-lockfile';

/**
 * Locks a data folder for this process (proper-lockfile: a lock directory whose time is
 * refreshed; a lock left by a killed process goes stale after 10 s and is taken over).
 * Resolves with the function that releases it.
 */
export async function lockFolder(folder: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(folder, { stale: 10_000, update: 2_000, retries: { retries: 6, minTimeout: 1_000, maxTimeout: 2_000 }, realpath: false });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new Error(`The data folder ${folder} is in use by another server process (only one process may open an embedded database; set DATABASE_URL to share a PostgreSQL instead)`);
    }
    throw error;
  }
}
