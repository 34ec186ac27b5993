import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import path from 'node:path';
import { sampleFile } from '../../samples/files.js';
import { bimPointcloudsFolder } from '../../scripts/bim-models.mjs';
import { POINTCLOUD_MEDIA_TYPE, POINTCLOUD_VERSION, readPointCloudHead, type PointCloudMetadata } from '../../src/core/formats/pointcloud.js';
import { SCENE_MEDIA_TYPE } from '../../src/core/formats/scene.js';
import { api, cli, databaseFor, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type TestServer } from './harness.js';
import { openDatabase } from '../storage/database.js';
import { makeLas } from './generated-las.js';

/**
 * Scans through the platform (jobs/pointcloud-import.ts): every file of the point clouds
 * folder uploaded through v1 becomes a point cloud revision, or an error that says why and
 * leaves nothing behind; the processed file is served whole and by HTTP ranges at the
 * URL the 3D viewer token's manifest gives. Run on PGlite and PostgreSQL.
 */
type Manifest = { models: { id: string; name: string; revision: number; objectIdBase: string; modelType?: string; formats: { type: string; url: string; size?: number }[] }[] };

const folder = bimPointcloudsFolder();
if (!folder) console.log('pointcloud-import: no point clouds folder (BIM_POINTCLOUDS, ../shared/pointclouds): the real scans are left out');

/** Files the readers must refuse, and the reason the status starts with. */
const REFUSED: Record<string, RegExp> = {
  'bad-crc.e57': /^bad checksum: /,
  'empty.e57': /^no points: /,
  'ZeroPoints.e57': /^no points: /,
};

/** The points MANIFEST.tsv states for a file ("1,065 points"; "the same points as x"), or undefined. */
function manifestCounts(dir: string): Map<string, number> {
  const rows = readFileSync(path.join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
  const counts = new Map<string, number>();
  for (const [file, , , , contents] of rows) {
    const stated = /([\d,]+) (?:synthetic )?points/.exec(contents);
    if (stated) counts.set(file, Number(stated[1].replace(/,/g, '')));
  }
  for (const [file, , , , contents] of rows) {
    const same = /the same points as (\S+)/.exec(contents);
    if (same && counts.has(same[1])) counts.set(file, counts.get(same[1])!);
  }
  return counts;
}

/** A LAS file's own point count (its header: the 64-bit count of LAS 1.4, else the legacy 32-bit one). */
function lasHeaderCount(bytes: Buffer): number {
  const minor = bytes[25];
  return minor >= 4 ? Number(bytes.readBigUInt64LE(247)) : bytes.readUInt32LE(107);
}

describe('point cloud imports', () => {
  let server: TestServer;
  let bearer: string;
  let v1: ReturnType<typeof api>;
  let project: { id: string };
  let otherProject: { id: string };
  // The server's temporary folder of its own: the test sees the import's scratch files there.
  const scratchRoot = mkdtempSync(path.join(tmpdir(), 'bim-pointcloud-test-'));
  const env = serverEnv(newDataDir(), { JOB_LEASE_MS: '2000', TMPDIR: scratchRoot });
  const scratchLeft = () => readdirSync(scratchRoot).filter((f) => f.startsWith('bim-pointcloud-'));

  const post = async (pathname: string, body?: unknown) => {
    const answer = await fetch(`${server.url}${pathname}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.equal(answer.status, 201, await answer.clone().text());
    return (await answer.json()) as { url: string };
  };
  const manifestOf = async (projectId: string, models: string[], kind = 'viewer3d') => {
    const { url } = await post(`/v2/projects/${projectId}/${kind}/token`, { models });
    const answer = await fetch(url);
    assert.equal(answer.status, 200);
    return { url, manifest: (await answer.json()) as Manifest };
  };
  const newModel = async (name: string, projectId = project.id) => (await v1.post(`/models/new?project_id=${projectId}`, { name })).json as { id: string };
  const uploadAndWait = async (modelId: string, name: string, bytes: Uint8Array) => {
    const upload = await v1.upload(modelId, name, bytes);
    assert.equal(upload.status, 200, JSON.stringify(upload.json));
    const status = await v1.waitForImport(upload.json.token);
    assert.equal(status.status, 200);
    return status.json as { result: string; error?: string; revision_id?: number };
  };
  /** Blobs left under a model's folders (local blob storage: the data folder's blobs/). */
  const blobsOf = (modelId: string) =>
    ['uploads', 'pointclouds', 'scenes'].flatMap((top) => {
      const dir = path.join(server.dataDir, 'blobs', top, modelId);
      return existsSync(dir) ? readdirSync(dir).map((f) => `${top}/${modelId}/${f}`) : [];
    });
  const range = (url: string, header?: string) => fetch(url, { headers: header ? { Range: header } : {} });

  before(async () => {
    const app = cli(env, 'app', 'add', '--name', 'Scans', '--redirect-uri', 'http://127.0.0.1:9/cb');
    server = await startServer(env);
    bearer = (await signInAs(server.url, app)).access_token;
    v1 = api(server.url, bearer);
    project = (await v1.post('/projects/new', { name: 'Scans' })).json;
    otherProject = (await v1.post('/projects/new', { name: 'Elsewhere' })).json;
  });

  after(async () => {
    if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output());
    await server?.stop();
    removeDataDir(env.DATA_DIR!);
    removeDataDir(scratchRoot);
  });

  /** Checks a point cloud revision end to end; resolves with the processed file's metadata. */
  const checkRevision = async (modelId: string, revision: number, fileName: string, upload: Buffer, expected?: number) => {
    const revisions = (await v1.get(`/revisions?model_id=${modelId}`)).json as { id: number; model_type?: string; point_count?: number }[];
    const listed = revisions.find((r) => r.id === revision)!;
    assert.equal(listed.model_type, 'point-cloud', `${fileName}: the revision says it is a point cloud`);
    assert.ok(listed.point_count! > 0, `${fileName}: has points`);
    if (expected !== undefined) assert.equal(listed.point_count, expected, `${fileName}: the points MANIFEST.tsv or the file's header states`);
    assert.deepEqual((await v1.get(`/revision?model_id=${modelId}&revision_id=${revision}`)).json, listed);
    const products = await v1.get(`/revision/products?model_id=${modelId}&revision_id=${revision}`);
    assert.equal(products.status, 200);
    assert.deepEqual(products.json, [], 'a point cloud has no products');
    const exported = await fetch(`${server.url}/1.0/revision/export?model_id=${modelId}&revision_id=${revision}`, { headers: { Authorization: `Bearer ${bearer}` } });
    assert.equal(exported.status, 200);
    const kind = fileName.endsWith('.e57') ? 'model/e57' : fileName.endsWith('.laz') ? 'application/vnd.laszip' : 'application/vnd.las';
    assert.equal(exported.headers.get('content-type'), kind);
    assert.ok(Buffer.from(await exported.arrayBuffer()).equals(upload), `${fileName}: exported as uploaded`);

    const { url, manifest } = await manifestOf(project.id, [modelId]);
    assert.equal(manifest.models.length, 1);
    const [entry] = manifest.models;
    assert.equal(entry.modelType, 'point-cloud');
    assert.match(entry.objectIdBase, /^\d+$/);
    assert.deepEqual(entry.formats.map((f) => f.type), [POINTCLOUD_MEDIA_TYPE]);
    const fileUrl = new URL(entry.formats[0].url, url).href;
    const whole = await fetch(fileUrl);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.equal(whole.headers.get('content-type'), POINTCLOUD_MEDIA_TYPE);
    const bytes = Buffer.from(await whole.arrayBuffer());
    assert.equal(bytes.length, entry.formats[0].size, 'the manifest gives the size');
    assert.equal(Number(whole.headers.get('content-length')), bytes.length);
    assert.equal(bytes.subarray(0, 8).toString('latin1'), 'BIMCLOUD');
    const head = readPointCloudHead(bytes);
    assert.ok('metadata' in head);
    const metadata = head.metadata as PointCloudMetadata;
    assert.equal(metadata.points, listed.point_count, `${fileName}: the file's head counts the revision's points`);

    // The head by a range, then the hierarchy section by the offsets it gives: its CRC holds.
    const start = await range(fileUrl, 'bytes=0-15');
    assert.equal(start.status, 206);
    assert.equal(start.headers.get('content-range'), `bytes 0-15/${bytes.length}`);
    assert.deepEqual(Buffer.from(await start.arrayBuffer()), bytes.subarray(0, 16));
    const { offset, size } = metadata.container.hierarchy;
    const hierarchy = await range(fileUrl, `bytes=${offset}-${offset + size - 1}`);
    assert.equal(hierarchy.status, 206);
    assert.equal(crc32(new Uint8Array(await hierarchy.arrayBuffer())), metadata.container.hierarchy.crc32, `${fileName}: the hierarchy read by its range is whole`);
    const a = Math.floor(bytes.length / 3);
    const b = Math.floor((2 * bytes.length) / 3);
    const middle = await range(fileUrl, `bytes=${a}-${b}`);
    assert.equal(middle.status, 206);
    assert.equal(Number(middle.headers.get('content-length')), b - a + 1);
    assert.deepEqual(Buffer.from(await middle.arrayBuffer()), bytes.subarray(a, b + 1), 'a range in the middle is those bytes of the whole');
    return { fileUrl, bytes, metadata };
  };

  if (folder) {
    const counts = manifestCounts(folder);
    const files = readdirSync(folder).filter((f) => /\.(las|laz|e57)$/i.test(f)).sort();
    for (const file of files) {
      const refused = REFUSED[file];
      it(`${file}: ${refused ? 'refused with the reason, nothing left' : 'a point cloud revision, served whole and by ranges'}`, async () => {
        const bytes = readFileSync(path.join(folder, file));
        const model = await newModel(file);
        const status = await uploadAndWait(model.id, file, bytes);
        if (refused) {
          assert.equal(status.result, 'error', `${file} must be refused`);
          assert.match(status.error!, refused);
          assert.deepEqual((await v1.get(`/revisions?model_id=${model.id}`)).json, [], 'no revision');
          assert.deepEqual(blobsOf(model.id), [], 'nothing left in blob storage');
          return;
        }
        assert.equal(status.result, 'success', `${file}: ${status.error}`);
        assert.equal(status.revision_id, 1);
        const expected = counts.get(file) ?? (/\.la[sz]$/.test(file) ? lasHeaderCount(bytes) : undefined);
        await checkRevision(model.id, 1, file, bytes, expected);
      });
    }
  }

  it('refuses random bytes named scan.las, a LAS header whose points are missing, an unknown point format; nothing left', async () => {
    const model = await newModel('Random');
    const random = await uploadAndWait(model.id, 'scan.las', randomBytes(4096));
    assert.equal(random.result, 'error');
    assert.match(random.error!, /^unsupported: .*LASF.*ASTM-E57/);
    const truncated = await uploadAndWait(model.id, 'short.las', makeLas(10, 5000));
    assert.equal(truncated.result, 'error');
    assert.match(truncated.error!, /^(truncated|malformed): /);
    const format15 = makeLas(100);
    format15[104] = 15;
    const unsupported = await uploadAndWait(model.id, 'future.las', format15);
    assert.equal(unsupported.result, 'error');
    assert.match(unsupported.error!, /^unsupported: .*15/);
    assert.deepEqual((await v1.get(`/revisions?model_id=${model.id}`)).json, []);
    assert.deepEqual(blobsOf(model.id), []);
  });

  it('serves ranges: 206 for a-b, a- and -n, 416 with a JSON body past the end, 200 without a Range', async () => {
    const model = await newModel('Generated');
    const las = makeLas(20_000);
    const status = await uploadAndWait(model.id, 'generated.las', las);
    assert.equal(status.result, 'success', status.error);
    const { fileUrl, bytes } = await checkRevision(model.id, 1, 'generated.las', las, 20_000);
    const n = bytes.length;
    const open = await range(fileUrl, `bytes=${n - 100}-`);
    assert.equal(open.status, 206);
    assert.equal(open.headers.get('content-range'), `bytes ${n - 100}-${n - 1}/${n}`);
    assert.deepEqual(Buffer.from(await open.arrayBuffer()), bytes.subarray(n - 100));
    const suffix = await range(fileUrl, 'bytes=-37');
    assert.equal(suffix.status, 206);
    assert.equal(suffix.headers.get('content-range'), `bytes ${n - 37}-${n - 1}/${n}`);
    assert.deepEqual(Buffer.from(await suffix.arrayBuffer()), bytes.subarray(n - 37));
    const longSuffix = await range(fileUrl, `bytes=-${n + 1000}`);
    assert.equal(longSuffix.status, 206, 'a suffix longer than the file is all of it');
    assert.equal(longSuffix.headers.get('content-range'), `bytes 0-${n - 1}/${n}`);
    const clamped = await range(fileUrl, `bytes=${n - 10}-${n + 500}`);
    assert.equal(clamped.status, 206);
    assert.equal(clamped.headers.get('content-range'), `bytes ${n - 10}-${n - 1}/${n}`);
    for (const past of [`bytes=${n}-`, `bytes=${n + 5}-${n + 10}`, 'bytes=-0']) {
      const answer = await range(fileUrl, past);
      assert.equal(answer.status, 416, past);
      assert.equal(answer.headers.get('content-range'), `bytes */${n}`);
      const body = (await answer.json()) as { error: { code: number; message: string } };
      assert.equal(body.error.code, 416);
      assert.match(body.error.message, /not inside the file/);
    }
    const preflight = await fetch(fileUrl, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'range' } });
    assert.equal(preflight.status, 204, 'a viewer on another origin may send a suffix Range');
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /\bRange\b/i);
    assert.match(open.headers.get('access-control-expose-headers') ?? '', /Content-Range/, 'it may read where a part belongs');
    const ignored = await range(fileUrl, 'bytes=0-1,5-6');
    assert.equal(ignored.status, 200, 'several ranges: the whole file');
    assert.equal((await ignored.arrayBuffer()).byteLength, n);

    // The scan as uploaded, at the manifest's file URL with format=ifc, also by ranges, with its own media type.
    const upload = new URL(fileUrl);
    upload.searchParams.delete('format');
    const part = await range(upload.href, 'bytes=0-3');
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-type'), 'application/vnd.las');
    assert.equal(Buffer.from(await part.arrayBuffer()).toString('latin1'), 'LASF');
  });

  it('lists a project\'s BIM and scan revisions in one 3D manifest, none in the 2D one; other tokens get what they get for scenes', async () => {
    const bim = await newModel('House');
    assert.equal((await uploadAndWait(bim.id, 'house.ifc', readFileSync(sampleFile('house').ifc))).result, 'success', 'an IFC upload works as before');
    const bimRevision = (await v1.get(`/revisions?model_id=${bim.id}`)).json[0];
    assert.equal(bimRevision.model_type, undefined, 'an IFC revision has no model_type');
    const scan = await newModel('Scan');
    assert.equal((await uploadAndWait(scan.id, 'scan.las', makeLas(5000))).result, 'success');
    const { url, manifest } = await manifestOf(project.id, [bim.id, scan.id]);
    const byId = new Map(manifest.models.map((m) => [m.id, m]));
    assert.equal(byId.get(bim.id)!.formats[0].type, SCENE_MEDIA_TYPE);
    assert.equal(byId.get(bim.id)!.modelType, undefined);
    assert.equal(byId.get(scan.id)!.modelType, 'point-cloud');
    const cloudUrl = new URL(byId.get(scan.id)!.formats[0].url, url);
    const sceneUrl = new URL(byId.get(bim.id)!.formats[0].url, url);
    assert.equal((await fetch(cloudUrl)).status, 200);

    const twoD = await manifestOf(project.id, [bim.id, scan.id], 'viewer2d');
    assert.deepEqual(twoD.manifest.models.map((m) => m.id), [bim.id], 'the 2D manifest leaves point clouds out');

    // A token of another project: on this project's URLs, and on its own project's URL asking for this model.
    const elsewhere = await newModel('Elsewhere', otherProject.id);
    assert.equal((await uploadAndWait(elsewhere.id, 'e.las', makeLas(100))).result, 'success');
    const foreign = await manifestOf(otherProject.id, [elsewhere.id]);
    const foreignToken = new URL(foreign.url).searchParams.get('token')!;
    for (const target of [cloudUrl, sceneUrl]) {
      const here = new URL(target);
      here.searchParams.set('token', foreignToken);
      const own = new URL(new URL(foreign.manifest.models[0].formats[0].url, foreign.url));
      own.searchParams.set('model', target.searchParams.get('model')!);
      own.searchParams.set('format', target.searchParams.get('format')!);
      assert.equal((await fetch(here)).status, 401, `${target.searchParams.get('format')}: another project's token on this project's URL`);
      assert.equal((await fetch(own)).status, 404, `${target.searchParams.get('format')}: a model its token does not grant`);
    }
  });

  it('finishes a scan import whose server was killed (SIGKILL) mid-conversion: one revision, all points', async () => {
    const model = await newModel('Killed');
    const big = makeLas(3_000_000);
    const upload = await v1.upload(model.id, 'big.las', big);
    assert.equal(upload.status, 200);
    // Killed once the converter has started: its scratch folder (inside the attempt's) exists.
    const attempt = path.join(scratchRoot, `bim-pointcloud-${upload.json.token}-1`);
    for (const until = Date.now() + 120_000; !(existsSync(attempt) && readdirSync(attempt).some((f) => f.startsWith('bimcloud-'))); ) {
      assert.ok(Date.now() < until, 'the conversion did not start');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await server.kill();
    assert.equal((await fetch(server.url).catch(() => null)), null, 'the server is gone');
    assert.ok(existsSync(attempt), 'the killed attempt left its scratch folder');
    server = await startServer(env);
    v1 = api(server.url, bearer);
    const status = await v1.waitForImport(upload.json.token, 300_000);
    assert.equal(status.json.result, 'success', status.json.error);
    const revisions = (await v1.get(`/revisions?model_id=${model.id}`)).json;
    assert.equal(revisions.length, 1, 'one revision');
    assert.equal(revisions[0].point_count, 3_000_000);
    assert.deepEqual(blobsOf(model.id).sort(), [`pointclouds/${model.id}/${upload.json.token}.bimcloud`, `uploads/${model.id}/${upload.json.token}.las`]);
    assert.deepEqual(scratchLeft(), [], 'the second attempt removed the first one\'s scratch folder; no import of this file left any');

    // Deleting the model deletes its files, the point cloud too.
    assert.equal((await v1.delete(`/model?model_id=${model.id}`)).status, 204);
    assert.deepEqual(blobsOf(model.id), []);
  });

  it('converts a point cloud of another format version again when the server starts, and serves the new one', async () => {
    const model = await newModel('Old format');
    const upload = await v1.upload(model.id, 'old.las', makeLas(2000));
    assert.equal((await v1.waitForImport(upload.json.token)).json.result, 'success');
    const before = `pointclouds/${model.id}/${upload.json.token}.bimcloud`;
    assert.ok(blobsOf(model.id).includes(before));
    // As an older platform would have left it: written in another version of the format.
    await server.stop();
    const db = await openDatabase({ url: databaseFor(env.DATA_DIR!), dataDir: env.DATA_DIR! });
    await db.query('UPDATE revisions SET pointcloud_version = $2 WHERE model_id = $1', [model.id, POINTCLOUD_VERSION - 1]);
    await db.close();
    server = await startServer(env);
    v1 = api(server.url, bearer);
    const after = `pointclouds/${model.id}/1-v${POINTCLOUD_VERSION}.bimcloud`;
    for (const until = Date.now() + 120_000; !blobsOf(model.id).includes(after) || blobsOf(model.id).includes(before); ) {
      assert.ok(Date.now() < until, `not converted again: ${blobsOf(model.id).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { manifest } = await manifestOf(project.id, [model.id]);
    assert.deepEqual(manifest.models.map((m) => [m.id, m.modelType]), [[model.id, 'point-cloud']]);
    assert.equal((await v1.get(`/revisions?model_id=${model.id}`)).json[0].point_count, 2000);
  });
});
