import { Readable } from 'node:stream';
import type { Database } from '../storage/database.js';
import type { BlobStore } from '../storage/blobs.js';
import { buildingText } from '../../samples/building.js';
import { sampleOptions } from '../../samples/variants.js';
import { registerImport } from './imports.js';
import { createModel } from './models.js';
import { createProject } from './projects.js';

/** The generated sample the first start imports: the project's own, so a machine without ../shared has one. */
export const SAMPLE = { project: 'Sample project', model: 'Sample house', variant: 'house' };

/**
 * On first start (no project at all), the first user gets a sample project whose model is
 * the generated house, imported through the real import path (upload, queue, processing).
 */
export async function createSampleProject(db: Database, blobs: BlobStore, userId: string): Promise<boolean> {
  const [{ n }] = await db.query('SELECT count(*)::int AS n FROM projects');
  if (n > 0) return false;
  const project = await createProject(db, userId, SAMPLE.project);
  const model = await createModel(db, userId, project.id, SAMPLE.model);
  const { text } = buildingText(sampleOptions(SAMPLE.variant) ?? undefined);
  await registerImport(db, blobs, { userId, clientId: '' }, model.id, { fileName: `${SAMPLE.variant}.ifc`, comment: 'Generated sample building' }, Readable.from([Buffer.from(text)]), Infinity);
  return true;
}
