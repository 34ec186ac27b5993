import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { sampleFile } from '../../samples/files.js';
import { openDatabase } from '../storage/database.js';
import { openBlobStore } from '../storage/blobs.js';
import { migrate } from '../storage/migrate.js';
import { take } from '../jobs/queue.js';
import { ifcImportJob } from '../jobs/ifc-import.js';
import { readIfc } from '../jobs/read-ifc.js';
import { registerImport } from '../services/imports.js';
import { createUser } from '../services/users.js';
import { createProject } from '../services/projects.js';
import { createModel } from '../services/models.js';
import { RecordKind, SceneReader, SCENE_MEDIA_TYPE } from '../../src/core/formats/scene.js';
import { decodePlans, PLANS_MEDIA_TYPE } from '../../src/core/formats/plans.js';
import { ADMIN, cli, databaseFor, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type TestServer } from './harness.js';

/**
 * Revisions without a scene (imported before scenes existed, or of an older format
 * version) get one when the platform starts: their manifest lists the IFC alone until
 * then, the scene first after.
 */
describe('scenes of stored revisions', () => {
  const dir = newDataDir();
  let server: TestServer | undefined;

  after(async () => {
    await server?.stop();
    removeDataDir(dir);
  });

  it('writes the scene and plans of a revision that has none when the server starts', async () => {
    // A data folder as an older platform left it: a revision with products and no scene or plans.
    const db = await openDatabase({ url: databaseFor(dir), dataDir: dir });
    let modelId: string, projectId: string, products: number;
    try {
      await migrate(db);
      const blobs = await openBlobStore({ dir: `${dir}/blobs` });
      const userId = (await createUser(db, ADMIN.email, 'Admin', ADMIN.password)).id;
      projectId = (await createProject(db, userId, 'Old')).id;
      modelId = (await createModel(db, userId, projectId, 'House')).id;
      await registerImport(db, blobs, { userId, clientId: 'none' }, modelId, { fileName: 'house.ifc', comment: '' }, createReadStream(sampleFile('house').ifc), 2 ** 30);
      await ifcImportJob(db, blobs, { maxProcessBytes: 2 ** 30, read: readIfc })((await take(db, 'old', 60_000))!, 'old');
      const [row] = await db.query('SELECT scene_key, plans_key, product_count FROM revisions WHERE model_id = $1', [modelId]);
      products = row.product_count;
      await blobs.delete(row.scene_key);
      await blobs.delete(row.plans_key);
      await db.query('UPDATE revisions SET scene_key = NULL, scene_size = NULL, scene_version = NULL, plans_key = NULL, plans_size = NULL');
    } finally {
      await db.close();
    }

    const env = serverEnv(dir, { JOB_POLL_MS: '50' });
    const app = cli(env, 'app', 'add', '--name', 'Scenes', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    const bearer = (await signInAs(server.url, app)).access_token;
    const answer = await fetch(`${server.url}/v2/projects/${projectId}/viewer3d/token`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } });
    const { url } = (await answer.json()) as { url: string };
    const formats = async () => ((await (await fetch(url)).json()) as { models: { formats: { type: string; url: string }[] }[] }).models[0].formats;
    const until = Date.now() + 120_000;
    let listed = await formats();
    while (listed.length < 3 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await formats();
    }
    assert.deepEqual(listed.map((f) => f.type), [SCENE_MEDIA_TYPE, PLANS_MEDIA_TYPE, 'application/x-step'], server.output());
    assert.match(server.output(), /scenes: 1 revision\(s\) to process again/);
    const reader = new SceneReader();
    const records = reader.push(new Uint8Array(await (await fetch(new URL(listed[0].url, url))).arrayBuffer()));
    reader.finish();
    const table = records.find((r) => r.kind === RecordKind.Products);
    assert.equal(table?.kind === RecordKind.Products && table.products.expressIds.length, products);
    const plans = decodePlans(new Uint8Array(await (await fetch(new URL(listed[1].url, url))).arrayBuffer()), '0');
    assert.ok(plans.storeys.length >= 3 && plans.spaces.length > 0, `${plans.storeys.length} storeys, ${plans.spaces.length} spaces`);

    // Nothing is left to do: the command queues none.
    await server.stop();
    server = undefined;
    assert.deepEqual(cli(env, 'scenes'), { queued: 0 });
  });
});
