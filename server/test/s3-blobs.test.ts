import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { sampleFile } from '../../samples/files.js';
import { api, cli, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type TestServer } from './harness.js';
import { makeLas } from './generated-las.js';

/**
 * The S3 blob store (storage/s3-blobs.ts) with the real server, against s3rver: a
 * file-backed stand-in for S3 that runs in this process (no S3-compatible server installs
 * here, TOOLCHAIN.md), spoken to with the same AWS SDK over HTTP. Upload, import, export
 * round trip, in one part and in several (lib-storage's multipart upload above 5 MB).
 */
const BUCKET = 'bim-platform-test';
const LIMIT = 12 * 1024 * 1024;

describe('blobs in S3 (s3rver)', () => {
  let s3rver: S3rver;
  let s3Dir: string;
  let s3: S3Client;
  let server: TestServer;
  let v1: ReturnType<typeof api>;
  let bearer: string;
  let project: { id: string };

  /** The bucket's keys under a prefix. */
  const keys = async (prefix: string) => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!);
  const object = async (key: string) => Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToByteArray());

  before(async () => {
    s3Dir = mkdtempSync(path.join(tmpdir(), 's3rver-test-'));
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = await s3rver.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const credentials = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const env = serverEnv(newDataDir(), { S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, ...credentials, AWS_PROFILE: '', AWS_EC2_METADATA_DISABLED: 'true', MAX_UPLOAD_BYTES: String(LIMIT) });
    const app = cli(env, 'app', 'add', '--name', 'S3', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    bearer = (await signInAs(server.url, app)).access_token;
    v1 = api(server.url, bearer);
    project = (await v1.post('/projects/new', { name: 'S3' })).json;
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output());
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
    await s3rver?.close();
    removeDataDir(s3Dir);
  });

  for (const sample of ['house', 'office-8k']) {
    it(`stores, processes and exports ${sample} byte for byte through the bucket`, async () => {
      const bytes = readFileSync(sampleFile(sample).ifc);
      if (sample !== 'house') assert.ok(bytes.length > 5 * 1024 * 1024 && bytes.length < LIMIT, `${sample} is ${bytes.length} bytes: not a multipart upload`);
      const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: sample })).json;
      const upload = await v1.upload(model.id, `${sample}.ifc`, bytes);
      assert.equal(upload.status, 200, JSON.stringify(upload.json));
      const done = await v1.waitForImport(upload.json.token, 180_000);
      assert.equal(done.json.result, 'success', JSON.stringify(done.json));

      const stored = await keys(`uploads/${model.id}/`);
      assert.deepEqual(stored, [`uploads/${model.id}/${upload.json.token}.ifc`]);
      assert.ok((await object(stored[0])).equals(bytes), 'the bucket holds the file as sent');
      const exported = await fetch(`${server.url}/1.0/revision/export?model_id=${model.id}&revision_id=1`, { headers: { Authorization: `Bearer ${bearer}` } });
      assert.equal(exported.status, 200);
      assert.equal(exported.headers.get('content-length'), String(bytes.length));
      assert.ok(Buffer.from(await exported.arrayBuffer()).equals(bytes), 'the export is the file as sent');
      assert.ok((await v1.get(`/revision/products?model_id=${model.id}`)).json.length > 10);

      // Deleting the model deletes its file.
      assert.equal((await v1.delete(`/model?model_id=${model.id}`)).status, 204);
      assert.deepEqual(await keys(`uploads/${model.id}/`), []);
    });
  }

  it('converts a scan from a scratch copy of its object, and serves the point cloud by ranges (GetObject with Range)', async () => {
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Scan' })).json;
    const upload = await v1.upload(model.id, 'scan.las', makeLas(30_000));
    const done = await v1.waitForImport(upload.json.token, 180_000);
    assert.equal(done.json.result, 'success', JSON.stringify(done.json));
    assert.deepEqual(await keys(`uploads/${model.id}/`), [`uploads/${model.id}/${upload.json.token}.las`]);
    const [cloudKey] = await keys(`pointclouds/${model.id}/`);
    const stored = await object(cloudKey);
    const token = await fetch(`${server.url}/v2/projects/${project.id}/viewer3d/token`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ models: [model.id] }) });
    const { url } = (await token.json()) as { url: string };
    const { models } = (await (await fetch(url)).json()) as { models: { modelType: string; formats: { url: string; size: number }[] }[] };
    assert.equal(models[0].modelType, 'point-cloud');
    assert.equal(models[0].formats[0].size, stored.length);
    const fileUrl = new URL(models[0].formats[0].url, url);
    const [a, b] = [Math.floor(stored.length / 2), Math.floor(stored.length / 2) + 999];
    const part = await fetch(fileUrl, { headers: { Range: `bytes=${a}-${b}` } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes ${a}-${b}/${stored.length}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), stored.subarray(a, b + 1), 'the bucket\'s bytes of that range');
    const tail = await fetch(fileUrl, { headers: { Range: 'bytes=-16' } });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), stored.subarray(stored.length - 16));
    assert.equal((await fetch(fileUrl, { headers: { Range: `bytes=${stored.length}-` } })).status, 416);
  });

  it('keeps nothing of an upload over the limit, nor of an empty one, and writes nothing to the data folder', async () => {
    const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'Refused' })).json;
    const tooLarge = await v1.upload(model.id, 'big.ifc', Buffer.alloc(LIMIT + 1, 0x20));
    assert.equal(tooLarge.status, 413, JSON.stringify(tooLarge.json));
    const empty = await v1.upload(model.id, 'empty.ifc', new Uint8Array(0));
    assert.equal(empty.status, 400, JSON.stringify(empty.json));
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await keys(`uploads/${model.id}/`), []);
    assert.deepEqual((await v1.get(`/revisions?model_id=${model.id}`)).json, []);
    assert.equal(existsSync(path.join(server.dataDir, 'blobs')), false, 'with S3_BUCKET no blob goes to the local folder');
  });
});
