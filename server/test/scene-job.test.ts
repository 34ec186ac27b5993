import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { sampleFile } from '../../samples/files.js';
import { openDatabase, type Database } from '../storage/database.js';
import { BlobNotFound, openBlobStore, type BlobStore } from '../storage/blobs.js';
import { migrate } from '../storage/migrate.js';
import { take } from '../jobs/queue.js';
import { ifcImportJob } from '../jobs/ifc-import.js';
import { readIfc } from '../jobs/read-ifc.js';
import { registerImport } from '../services/imports.js';
import { createUser } from '../services/users.js';
import { createProject } from '../services/projects.js';
import { createModel } from '../services/models.js';
import { RecordKind, SceneReader, SCENE_MEDIA_TYPE, SCENE_VERSION } from '../../src/core/formats/scene.js';
import { checksums } from '../../src/core/formats/checksum.js';
import { decodePlans, PLANS_MEDIA_TYPE } from '../../src/core/formats/plans.js';
import { ADMIN, cli, databaseFor, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type TestServer } from './harness.js';

/**
 * Revisions without a scene (imported before scenes existed, or of an older format
 * version) get one when the platform starts: their manifest lists the IFC alone until
 * then, the scene first after.
 */
describe('scenes of stored revisions', () => {
  const dirs: string[] = [];
  let server: TestServer | undefined;

  after(async () => {
    await server?.stop();
    dirs.forEach(removeDataDir);
  });

  /** A data folder with the house imported, its processed files then changed by `age` as an older platform would have left them. */
  async function oldFolder(age: (db: Database, row: { scene_key: string; plans_key: string }, blobs: BlobStore) => Promise<void>) {
    const dir = newDataDir();
    dirs.push(dir);
    const db = await openDatabase({ url: databaseFor(dir), dataDir: dir });
    try {
      await migrate(db);
      const blobs = await openBlobStore({ dir: `${dir}/blobs` });
      const userId = (await createUser(db, ADMIN.email, 'Admin', ADMIN.password)).id;
      const projectId = (await createProject(db, userId, 'Old')).id;
      const modelId = (await createModel(db, userId, projectId, 'House')).id;
      await registerImport(db, blobs, { userId, clientId: 'none' }, modelId, { fileName: 'house.ifc', comment: '' }, createReadStream(sampleFile('house').ifc), 2 ** 30);
      await ifcImportJob(db, blobs, { maxProcessBytes: 2 ** 30, read: readIfc })((await take(db, 'old', 60_000))!, 'old');
      const [row] = await db.query<{ scene_key: string; plans_key: string; product_count: number }>('SELECT scene_key, plans_key, product_count FROM revisions WHERE model_id = $1', [modelId]);
      await age(db, row, blobs);
      return { dir, projectId, products: row.product_count, keys: [row.scene_key, row.plans_key], blobs };
    } finally {
      await db.close();
    }
  }

  /** The server on `dir`, and a function answering the formats its 3D manifest lists for the one model. */
  async function serve(dir: string, projectId: string, env: Record<string, string> = {}) {
    const vars = serverEnv(dir, { JOB_POLL_MS: '50', ...env });
    const app = cli(vars, 'app', 'add', '--name', 'Scenes', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(vars);
    const bearer = (await signInAs(server.url, app)).access_token;
    const answer = await fetch(`${server.url}/v2/projects/${projectId}/viewer3d/token`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } });
    const { url } = (await answer.json()) as { url: string };
    const formats = async () => ((await (await fetch(url)).json()) as { models: { formats: { type: string; url: string }[] }[] }).models[0].formats;
    return { vars, url, formats };
  }

  async function stop() {
    await server?.stop();
    server = undefined;
  }

  /** The formats listed once the job has written the scene (within two minutes). */
  async function processed(formats: () => Promise<{ type: string; url: string }[]>) {
    const until = Date.now() + 120_000;
    let listed = await formats();
    while (listed.length < 3 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await formats();
    }
    assert.deepEqual(listed.map((f) => f.type), [SCENE_MEDIA_TYPE, PLANS_MEDIA_TYPE, 'application/x-step'], server?.output());
    assert.match(server!.output(), /scenes: 1 revision\(s\) to process again/);
    return listed;
  }

  it('writes the scene and plans of a revision that has none when the server starts', async () => {
    const old = await oldFolder(async (db, row, blobs) => {
      await blobs.delete(row.scene_key);
      await blobs.delete(row.plans_key);
      await db.query('UPDATE revisions SET scene_key = NULL, scene_size = NULL, scene_version = NULL, plans_key = NULL, plans_size = NULL');
    });
    const { vars, url, formats } = await serve(old.dir, old.projectId);
    const listed = await processed(formats);
    await checksums();
    const reader = new SceneReader();
    const records = reader.push(new Uint8Array(await (await fetch(new URL(listed[0].url, url))).arrayBuffer()));
    reader.finish();
    const table = records.find((r) => r.kind === RecordKind.Products);
    assert.equal(table?.kind === RecordKind.Products && table.products.expressIds.length, old.products);
    const plans = decodePlans(new Uint8Array(await (await fetch(new URL(listed[1].url, url))).arrayBuffer()), '0');
    assert.ok(plans.storeys.length >= 3 && plans.spaces.length > 0, `${plans.storeys.length} storeys, ${plans.spaces.length} spaces`);

    // Nothing is left to do: the command queues none.
    await stop();
    assert.deepEqual(cli(vars, 'scenes'), { queued: 0 });
  });

  it('lists only the IFC of a revision whose files are of an older format version until they are written again, then deletes the old ones', async () => {
    const old = await oldFolder((db) => db.query('UPDATE revisions SET scene_version = $1', [SCENE_VERSION - 1]).then(() => undefined));
    const idle = await serve(old.dir, old.projectId, { JOBS: 'off' });
    const [ifc, ...others] = await idle.formats();
    assert.deepEqual([ifc.type, others.length], ['application/x-step', 0], 'no worker has written them yet');
    const stale = await fetch(new URL(`${ifc.url}&format=scene`, idle.url));
    assert.equal(stale.status, 404, 'nor is the old scene served');
    assert.match(((await stale.json()) as { error: { message: string } }).error.message, /Scene/);
    await stop();

    const { url, formats } = await serve(old.dir, old.projectId);
    const listed = await processed(formats);
    await checksums();
    const reader = new SceneReader();
    reader.push(new Uint8Array(await (await fetch(new URL(listed[0].url, url))).arrayBuffer()));
    reader.finish();
    for (const key of old.keys) await assert.rejects(old.blobs.get(key), BlobNotFound, `the old file ${key} is deleted`);
  });
});
