import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import { sampleFile } from '../../samples/files.js';
import { startTemporaryPostgres } from '../../scripts/temporary-postgres.mjs';
import { api, cli, databaseFor, newDataDir, removeDataDir, serverEnv, signInAs, startServer, type OAuthApp, type TestServer } from './harness.js';
import { bcfClient } from './bcf-client.js';
import { makeLas } from './generated-las.js';
import { soaking } from './soak.js';
import { sleep, startWorker, writeFiguresFor, type Worker } from './killed-processes-support.js';
import { seededRandom } from './seeded-random.js';
import { SceneReader } from '../../src/core/formats/scene.js';
import { checksums } from '../../src/core/formats/checksum.js';

/**
 * Issue 22, part 4: processes killed with SIGKILL at random moments (a seeded random, the
 * seed printed: KILL_SEED=<n> replays a run) and a PostgreSQL that goes away. Afterwards
 * every import has ended (`success` or `error`, never stuck `running`), no half revision
 * is visible, every write the server acknowledged is there, the data folder (PGlite) or
 * the database opens again, and a server whose PostgreSQL restarted answers again by
 * itself. `npm test` runs a few kills; `npm run soak -- killed-processes` many, and writes
 * the figures per database.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
const database = onPostgres ? 'postgres' : 'pglite';
const soak = soaking();
const seed = Number(process.env.KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`killed-processes on ${database}: KILL_SEED=${seed}`);
const random = seededRandom(seed);
const between = (low: number, high: number) => low + Math.floor(random() * (high - low));

const figures: Record<string, number | string> = { database, seed };
/** How long each restart after a kill took to listen again (PGlite waits for the killed process's folder lock to go stale). */
const restartMs: number[] = [];
after(() => {
  if (restartMs.length) figures.restartAfterKillMsMax = Math.max(...restartMs);
  console.log(`restarts after a kill: ${restartMs.join(', ')} ms`);
  writeFiguresFor(database, figures);
});

/** Generated buildings; the office has more products than a batch (read-ifc.ts BATCH_SIZE): a kill may come between its batches. */
const IFC = ['office-1.5k', 'cabin', 'house'].map((name) => {
  const { ifc, truth } = sampleFile(name);
  return { name: `${name}.ifc`, bytes: readFileSync(ifc), products: productsOf(truth) };
});
/** The generator's truth lists the building's products; the IfcProject is one more product in v1's lists. */
function productsOf(truth: string): number {
  return (JSON.parse(readFileSync(truth, 'utf8')).products.length as number) + 1;
}
const LAS = makeLas(30_000);

type V1 = ReturnType<typeof api>;

/** Every product of a revision, page by page. */
async function allProducts(v1: V1, modelId: string, revision: number): Promise<{ objectId: number; globalId: string; type: string }[]> {
  const all = [];
  for (let page = 1; ; page++) {
    const answer = await v1.get(`/revision/products?model_id=${modelId}&revision_id=${revision}&per_page=1000&page=${page}`);
    assert.equal(answer.status, 200, answer.text);
    all.push(...answer.json);
    if (answer.json.length < 1000) return all;
  }
}

/** GET until the server answers 200 (a restart, a reconnection); how long it took. */
async function answersAgain(url: string, headers: Record<string, string>, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await fetch(url, { headers }).catch(() => undefined);
    if (answer?.status === 200) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`${url} still answers ${answer?.status ?? 'nothing'} after ${limitMs} ms`);
    await sleep(250);
  }
}

describe(`killed processes (${database})`, () => {
  it('ends every import whose worker was killed (SIGKILL) at random moments: success or error, no half, duplicate or missing revision', async () => {
    const imports = soak ? 20 : 5;
    // A PGlite restart waits for the killed process's folder lock to go stale (~10 s): one kill under npm test.
    const kills = soak ? 12 : onPostgres ? 2 : 1;
    // A short lease: a killed worker's job is taken again two seconds later.
    const env = serverEnv(newDataDir(), { JOB_LEASE_MS: '2000', ...(onPostgres ? { JOBS: 'off' } : {}) });
    const app = cli(env, 'app', 'add', '--name', 'Killed imports', '--redirect-uri', 'http://127.0.0.1:9/cb');
    let server = await startServer(env);
    const bearer = (await signInAs(server.url, app)).access_token;
    let v1 = api(server.url, bearer);
    // On PostgreSQL the API process runs no jobs and `npm run worker` processes do (two under
    // SOAK): they are what is killed. On PGlite the one process runs its jobs: it is killed.
    const workers: Worker[] = onPostgres ? await Promise.all(Array.from({ length: soak ? 2 : 1 }, () => startWorker(env))) : [];
    try {
      const project = (await v1.post('/projects/new', { name: 'Killed imports' })).json;
      const models: { id: string; name: string }[] = [];
      for (const name of ['A', 'B', 'Scan']) models.push((await v1.post(`/models/new?project_id=${project.id}`, { name })).json);
      // Which file each import sends, and to which model: the scans to their own model.
      const plan = Array.from({ length: imports }, (_, i) => {
        if (i % 5 === 2) return { model: models[2].id, name: 'scan.las', bytes: LAS, products: 0 };
        return { model: models[i % 2].id, ...IFC[[0, 1, 0, 2, 0][i % 5]] };
      });
      const tokens: { token: string; model: string; name: string; products: number }[] = [];
      const upload = async (count: number) => {
        for (const item of plan.splice(0, count)) {
          const answer = await v1.upload(item.model, item.name, item.bytes, { comment: item.name });
          assert.equal(answer.status, 200, JSON.stringify(answer.json));
          tokens.push({ token: answer.json.token, model: item.model, name: item.name, products: item.products });
        }
      };

      // While imports run and workers die: every revision listed is whole already (its
      // comment names its file). Half revisions seen on the way are counted with the end's.
      let halfRevisions = 0;
      const wholeSoFar = async () => {
        for (const model of models) {
          for (const revision of (await v1.get(`/revisions?model_id=${model.id}`)).json as { id: number; comment: string; point_count?: number }[]) {
            const file = IFC.find((f) => f.name === revision.comment);
            if (!file) {
              if (revision.comment !== 'scan.las' || revision.point_count !== 30_000) halfRevisions++;
              continue;
            }
            const products = await allProducts(v1, model.id, revision.id);
            if (products.length !== file.products) {
              console.log(`while running: model ${model.name} revision ${revision.id} of ${file.name}: ${products.length} products, ${file.products} expected`);
              halfRevisions++;
            }
          }
        }
      };
      let killed = 0;
      let killedWhileRunning = 0;
      await upload(Math.ceil(imports / 2));
      for (let k = 0; k < kills; k++) {
        // Every other kill on PostgreSQL waits for the moment that matters most: an import
        // with rows written under its revision number, not yet finished (the database is
        // read directly; PGlite's folder is the server's alone).
        if (onPostgres && k % 2 === 1) await midImport(env.DATABASE_URL!, 10_000);
        await sleep(between(onPostgres && k % 2 === 1 ? 0 : 200, onPostgres && k % 2 === 1 ? 300 : 2500));
        const running = await Promise.all(tokens.map(async ({ token }) => (await v1.get(`/model/import/status?token=${token}`)).json?.result === 'running'));
        if (running.some(Boolean)) killedWhileRunning++;
        if (onPostgres) {
          const which = between(0, workers.length);
          await workers[which].kill();
          workers[which] = await startWorker(env);
        } else {
          await server.kill();
          const restarting = Date.now();
          server = await startServer(env);
          restartMs.push(Date.now() - restarting);
          v1 = api(server.url, bearer);
        }
        killed++;
        await wholeSoFar();
        await upload(Math.ceil(imports / 2 / kills));
      }
      await upload(plan.length);

      // Never stuck: every import ends within a generous limit ("hung" otherwise).
      const ended: { token: string; model: string; name: string; products: number; result: string; revision?: number; error?: string }[] = [];
      let stuck = 0;
      const deadline = Date.now() + 180_000;
      for (const item of tokens) {
        try {
          const status = await v1.waitForImport(item.token, Math.max(1000, deadline - Date.now()));
          assert.equal(status.status, 200, status.text);
          ended.push({ ...item, result: status.json.result, revision: status.json.revision_id, error: status.json.error });
        } catch {
          stuck++;
        }
      }
      // The files are good: an import may fail only for its job killed MAX_ATTEMPTS (3) times.
      const failures = ended.filter((e) => e.result === 'error').map((e) => `${e.name}: ${e.error}`);
      for (const failure of failures) assert.match(failure, /processing stopped 3 times without finishing \(the worker process ended\)$/);
      if (kills < 3) assert.deepEqual(failures, [], 'an import failed with fewer kills than attempts');
      const endedSuccess = ended.filter((e) => e.result === 'success').length;
      const endedError = ended.filter((e) => e.result === 'error').length;

      // No half revision: a listed revision has all its products and its processed files;
      // none twice; exactly the revisions of the imports that succeeded.
      let duplicateRevisions = 0;
      let gaps = 0;
      for (const model of models) {
        const listed: { id: number; point_count?: number; model_type?: string }[] = (await v1.get(`/revisions?model_id=${model.id}`)).json;
        const ids = listed.map((r) => r.id);
        duplicateRevisions += ids.length - new Set(ids).size;
        const succeeded = ended.filter((e) => e.model === model.id && e.result === 'success');
        assert.deepEqual([...ids].sort((a, b) => a - b), succeeded.map((e) => e.revision!).sort((a, b) => a - b), `model ${model.name}: the revisions listed are those of the imports that succeeded`);
        // Numbers are 1..n, unless an import that failed kept its number (a later import had taken the next).
        if (!ended.some((e) => e.model === model.id && e.result === 'error')) {
          const contiguous = ids.length === 0 || Math.max(...ids) === ids.length;
          if (!contiguous) gaps++;
        }
        for (const item of succeeded) {
          if (item.name === 'scan.las') {
            const revision = listed.find((r) => r.id === item.revision)!;
            if (revision.model_type !== 'point-cloud' || revision.point_count !== 30_000) halfRevisions++;
            continue;
          }
          const products = await allProducts(v1, model.id, item.revision!);
          assert.ok(products.some((p) => p.type === 'IfcProject'));
          const whole = products.length === item.products && new Set(products.map((p) => p.objectId)).size === products.length;
          if (!whole) console.log(`model ${model.name} revision ${item.revision}: ${products.length} products, ${item.products} expected`);
          if (!whole) halfRevisions++;
        }
        // The latest revision's processed files, as a viewer gets them.
        if (succeeded.length) halfRevisions += await incompleteFormats(server.url, bearer, project.id, model.id, Math.max(...ids));
      }
      Object.assign(figures, { imports: tokens.length, kills: killed, killedWhileRunning, endedSuccess, endedError, stuck, halfRevisions, duplicateRevisions, revisionGaps: gaps });
      console.log(JSON.stringify({ imports: tokens.length, kills: killed, killedWhileRunning, endedSuccess, endedError, stuck, halfRevisions, duplicateRevisions, gaps }));
      assert.equal(tokens.length, imports);
      assert.equal(stuck, 0, 'an import stuck running');
      assert.equal(endedSuccess + endedError, imports);
      assert.equal(halfRevisions, 0);
      assert.equal(duplicateRevisions, 0);
      assert.equal(gaps, 0, 'revision numbers with a gap');
      assert.ok(endedSuccess > 0, 'nothing succeeded: the kills came too often to learn anything');
      for (const worker of workers) assert.ok(worker.alive(), worker.output());
    } finally {
      if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output(), workers.map((w) => w.output()).join('\n'));
      await Promise.all(workers.map((w) => w.stop()));
      await server.stop();
      removeDataDir(env.DATA_DIR!);
    }
  });

  it('keeps every write it acknowledged when the API process is killed (SIGKILL) under write load, and opens its data again', async () => {
    const cycles = soak ? 6 : 1;
    const writers = 6;
    const env = serverEnv(newDataDir());
    const app = cli(env, 'app', 'add', '--name', 'Killed writes', '--redirect-uri', 'http://127.0.0.1:9/cb');
    let server: TestServer = await startServer(env);
    const bearer = (await signInAs(server.url, app)).access_token;
    let v1 = api(server.url, bearer);
    let bcf = bcfClient(server.url, bearer);
    const board = (await bcf('POST', '/2.0/projects', { name: 'Killed writes' })).json;
    const home = (await v1.post('/projects/new', { name: 'Models home' })).json;
    const firstTopic = (await bcf('POST', `/3.0/projects/${board.project_id}/topics`, { title: 'first' })).json;

    type Write = { kind: 'project' | 'model' | 'topic' | 'comment'; id: string; text: string; topic?: string };
    const acknowledged: Write[] = [];
    let attempted = 0;
    let reopened = 0;
    try {
      for (let cycle = 0; cycle < cycles; cycle++) {
        const topics = [firstTopic.guid, ...acknowledged.filter((w) => w.kind === 'topic').map((w) => w.id)];
        let stop = false;
        const writer = async (n: number) => {
          for (let i = 0; !stop; i++) {
            const text = `c${cycle} w${n} #${i} ${random().toString(36).slice(2, 8)}`;
            const kind = (['project', 'model', 'topic', 'comment'] as const)[between(0, 4)];
            attempted++;
            try {
              if (kind === 'project') {
                const answer = await v1.post('/projects/new', { name: text });
                if (answer.status >= 200 && answer.status < 300) acknowledged.push({ kind, id: answer.json.id, text });
              } else if (kind === 'model') {
                const answer = await v1.post(`/models/new?project_id=${home.id}`, { name: text });
                if (answer.status >= 200 && answer.status < 300) acknowledged.push({ kind, id: answer.json.id, text });
              } else if (kind === 'topic') {
                const answer = await bcf('POST', `/3.0/projects/${board.project_id}/topics`, { title: text });
                if (answer.status >= 200 && answer.status < 300) acknowledged.push({ kind, id: answer.json.guid, text });
              } else {
                const topic = topics[between(0, topics.length)];
                const answer = await bcf('POST', `/3.0/projects/${board.project_id}/topics/${topic}/comments`, { comment: text });
                if (answer.status >= 200 && answer.status < 300) acknowledged.push({ kind, id: answer.json.guid, text, topic });
              }
            } catch {
              // No answer (the process was killed): not acknowledged, may or may not be there.
            }
          }
        };
        const load = Array.from({ length: writers }, (_, n) => writer(n));
        // The kill comes under load: once the writers have had a few writes acknowledged (a
        // fixed wait alone saw fewer than `writers` on a busy machine), then at a random moment.
        const before = acknowledged.length;
        for (const until = Date.now() + 60_000; acknowledged.length - before < writers && Date.now() < until; ) await sleep(20);
        await sleep(between(0, 2000));
        await server.kill();
        stop = true;
        await Promise.all(load);
        // The same data folder (PGlite) or database (PostgreSQL) opens again after the kill.
        const restarting = Date.now();
        server = await startServer(env);
        restartMs.push(Date.now() - restarting);
        reopened++;
        v1 = api(server.url, bearer);
        bcf = bcfClient(server.url, bearer);
      }

      // Every acknowledged write is there, whole.
      let lost = 0;
      const missing: string[] = [];
      const commentsOf = new Map<string, Set<string>>();
      for (const write of acknowledged) {
        let found = false;
        if (write.kind === 'project') found = (await v1.get(`/project?project_id=${write.id}`)).json?.name === write.text;
        else if (write.kind === 'model') found = (await v1.get(`/model?model_id=${write.id}`)).json?.name === write.text;
        else if (write.kind === 'topic') found = (await bcf('GET', `/3.0/projects/${board.project_id}/topics/${write.id}`)).json?.title === write.text;
        else {
          if (!commentsOf.has(write.topic!)) {
            const list = (await bcf('GET', `/3.0/projects/${board.project_id}/topics/${write.topic}/comments`)).json ?? [];
            commentsOf.set(write.topic!, new Set(list.map((c: { guid: string; comment: string }) => `${c.guid} ${c.comment}`)));
          }
          found = commentsOf.get(write.topic!)!.has(`${write.id} ${write.text}`);
        }
        if (!found) {
          lost++;
          missing.push(`${write.kind} ${write.id} ${write.text}`);
        }
      }
      // Nothing half written: what is listed reads back whole (a project with its models list, a topic with its comments).
      let halfWritten = 0;
      for (const project of (await v1.get('/projects')).json) {
        if ((await v1.get(`/models?project_id=${project.id}`)).status !== 200) halfWritten++;
      }
      const listed = await bcf('GET', `/3.0/projects/${board.project_id}/topics?$filter=${encodeURIComponent("topic_status ne 'Closed'")}`);
      assert.equal(listed.status, 200, listed.text);
      for (const topic of listed.json) {
        if (!topic.title || (await bcf('GET', `/3.0/projects/${board.project_id}/topics/${topic.guid}/comments`)).status !== 200) halfWritten++;
      }
      // The server still takes writes after its restarts.
      assert.equal((await v1.post('/projects/new', { name: 'after the kills' })).status, 200);
      Object.assign(figures, { writesAttempted: attempted, writesAcknowledged: acknowledged.length, writesLost: lost, halfWritten, apiKills: cycles, reopenedAfterKill: reopened });
      console.log(JSON.stringify({ attempted, acknowledged: acknowledged.length, lost, halfWritten, reopened }));
      assert.ok(acknowledged.length >= writers * cycles, `only ${acknowledged.length} writes acknowledged before the kills`);
      assert.deepEqual(missing, [], 'acknowledged writes lost');
      assert.equal(halfWritten, 0);
      assert.equal(reopened, cycles);
    } finally {
      if (process.env.SHOW_SERVER_OUTPUT) console.log(server.output());
      await server.stop();
      removeDataDir(env.DATA_DIR!);
    }
  });

  if (onPostgres) {
    it('answers 503 with a JSON body while PostgreSQL is down, and again by itself once it is back; jobs resume', async () => {
      const restarts = soak ? 4 : 1;
      // A PostgreSQL of this test's own: stopping the run's would break other tests.
      const postgres = await startTemporaryPostgres();
      const dir = newDataDir();
      const env = serverEnv(dir, { DATABASE_URL: databaseFor(dir, postgres.url), JOBS: 'off', JOB_LEASE_MS: '2000' });
      let server: TestServer | undefined;
      let worker: Worker | undefined;
      let survived = 0;
      // The writers of the current restart: stopped in `finally` too, when a check failed.
      let writing = false;
      const loops: Promise<void>[] = [];
      try {
        const app: OAuthApp = cli(env, 'app', 'add', '--name', 'Restarts', '--redirect-uri', 'http://127.0.0.1:9/cb');
        server = await startServer(env);
        worker = await startWorker(env);
        const bearer = (await signInAs(server.url, app)).access_token;
        const v1 = api(server.url, bearer);
        const project = (await v1.post('/projects/new', { name: 'Restarts' })).json;
        const model = (await v1.post(`/models/new?project_id=${project.id}`, { name: 'House' })).json;
        const bcf = bcfClient(server.url, bearer);
        const board = (await bcf('POST', '/2.0/projects', { name: 'Restarts' })).json;
        const statuses = new Map<number, number>();
        const odd: string[] = [];
        for (let r = 0; r < restarts; r++) {
          // An import under way when the database goes.
          const during = await v1.upload(model.id, 'house.ifc', IFC[2].bytes);
          assert.equal(during.status, 200);
          // Writers throughout, so that the database goes in the middle of transactions too:
          // each answer is a 2xx or a 503, never a 500 nor no answer (a crash).
          writing = true;
          const writers = Array.from({ length: 8 }, async (_, n) => {
            for (let i = 0; writing; i++) {
              const answer = await (n % 4 === 0 ? v1.post('/projects/new', { name: `load ${r} ${n} ${i}` }) : bcf('POST', `/3.0/projects/${board.project_id}/topics`, { title: `load ${r} ${n} ${i}` })).catch((error: Error) => ({ status: 0, text: error.message }));
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
              if (answer.status !== 503 && (answer.status < 200 || answer.status >= 300)) odd.push(`${answer.status} ${answer.text}`);
              if (answer.status === 503) await sleep(50);
            }
          });
          loops.push(...writers);
          await sleep(between(100, 1000));
          postgres.halt();
          try {
            for (const [method, path, body] of [
              ['GET', '/projects'],
              ['POST', '/projects/new', { name: 'in the outage' }],
              ['GET', `/model/import/status?token=${during.json.token}`],
            ] as const) {
              const answer = method === 'GET' ? await v1.get(path) : await v1.post(path, body);
              assert.equal(answer.status, 503, `${method} ${path} while PostgreSQL is down: ${answer.status} ${answer.text}`);
              assert.equal(typeof answer.json?.error?.message, 'string', answer.text);
              assert.equal(answer.headers.get('content-type')?.split(';')[0], 'application/json');
            }
            const upload = await v1.upload(model.id, 'cabin.ifc', IFC[1].bytes);
            assert.equal(upload.status, 503, JSON.stringify(upload.json));
            assert.ok(server.process.exitCode === null && server.process.signalCode === null, `the API process ended:\n${server.output()}`);
          } finally {
            postgres.start();
          }
          // Back without a restart of the server: its pool reconnects.
          await answersAgain(`${server.url}/1.0/projects`, { Authorization: `Bearer ${bearer}` }, 30_000);
          writing = false;
          await Promise.all(writers);
          loops.length = 0;
          assert.deepEqual(odd, [], 'answers other than 2xx or 503 around the restart');
          const after = await v1.upload(model.id, 'cabin.ifc', IFC[1].bytes);
          assert.equal(after.status, 200);
          for (const token of [during.json.token, after.json.token]) {
            const done = await v1.waitForImport(token, 120_000);
            assert.equal(done.json.result, 'success', JSON.stringify(done.json));
          }
          assert.ok(server.process.exitCode === null, server.output());
          assert.ok(worker.alive(), `the worker ended:\n${worker.output()}`);
          survived++;
        }
        const revisions = (await v1.get(`/revisions?model_id=${model.id}`)).json.map((r: { id: number }) => r.id);
        assert.deepEqual([...revisions].sort((a: number, b: number) => a - b), Array.from({ length: 2 * restarts }, (_, i) => i + 1), 'one revision per import, numbered 1..n');
        console.log(`answers around the restarts: ${JSON.stringify(Object.fromEntries(statuses))}`);
        figures.answers503 = statuses.get(503) ?? 0;
        assert.ok((statuses.get(503) ?? 0) > 0, 'no request met the outage');
      } finally {
        writing = false;
        await Promise.all(loops);
        figures.postgresRestarts = restarts;
        figures.postgresRestartsSurvived = survived;
        if (process.env.SHOW_SERVER_OUTPUT) console.log(server?.output(), worker?.output());
        await worker?.stop();
        await server?.stop();
        removeDataDir(dir);
        postgres.stop();
      }
    });
  }

  if (onPostgres) {
    it('answers 503 within the connect timeout while PostgreSQL cannot be reached (connections that get no answer), and again by itself after', async () => {
      // Its connections reset, new ones accepted and never answered, as across a network partition.
      const { line, server, bearer, v1 } = await behindProxy('Partition', { DATABASE_CONNECT_TIMEOUT_MS: '1500' });
      try {
        assert.equal((await v1.get('/projects')).status, 200);
        line.cut();
        await sleep(300); // the pool has let go of its reset connections: requests connect anew
        await answer503Within(v1, [['GET', '/projects'], ['POST', '/projects/new', { name: 'in the partition' }]], 10_000);
        assert.ok(server.process.exitCode === null && server.process.signalCode === null, `the API process ended:\n${server.output()}`);
        line.mend();
        await answersAgain(`${server.url}/1.0/projects`, { Authorization: `Bearer ${bearer}` }, 30_000);
      } finally {
        await server.stop();
        line.close();
      }
    });

    it('answers 503 within the query timeout when the line goes silent under open connections (no reset), and again by itself after', async () => {
      const { line, server, bearer, v1 } = await behindProxy('Silence', { DATABASE_CONNECT_TIMEOUT_MS: '1500', DATABASE_QUERY_TIMEOUT_MS: '1500' });
      try {
        // Several requests at once: the pool keeps several connections open.
        for (const answer of await Promise.all(Array.from({ length: 4 }, () => v1.get('/projects')))) assert.equal(answer.status, 200);
        line.silence();
        await answer503Within(v1, [['GET', '/projects'], ['POST', '/projects/new', { name: 'in the silence' }], ['GET', '/projects']], 8_000);
        assert.ok(server.process.exitCode === null && server.process.signalCode === null, `the API process ended:\n${server.output()}`);
        line.mend();
        await answersAgain(`${server.url}/1.0/projects`, { Authorization: `Bearer ${bearer}` }, 30_000);
        assert.ok(!JSON.stringify((await v1.get('/projects')).json).includes('in the silence'), 'the project asked for in the silence was not made');
      } finally {
        await server.stop();
        line.close();
      }
    });

    it('stops on SIGTERM within STOP_WAIT_MS even while a request waits on a database out of reach', async () => {
      const { line, server, v1 } = await behindProxy('Stop', { DATABASE_CONNECT_TIMEOUT_MS: '120000', STOP_WAIT_MS: '2000' });
      try {
        line.cut();
        await sleep(300); // the pool has let go of its reset connections: the next request connects anew
        const waiting = v1.get('/projects').catch(() => null); // waits for a connection that never answers
        await sleep(500);
        const started = Date.now();
        const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
        server.process.kill('SIGTERM');
        const code = await Promise.race([exited, sleep(15_000).then(() => 'still running after 15 s')]);
        assert.equal(code, 1, `the stop: ${code}\n${server.output()}`);
        assert.ok(Date.now() - started < 10_000, `stopped after ${Date.now() - started} ms`);
        assert.match(server.output(), /still waiting for requests or jobs after 2000 ms; ending now/);
        await waiting;
      } finally {
        await server.kill();
        line.close();
      }
    });
  }
});

/**
 * A server (its own data folder, jobs off) on the run's PostgreSQL through a partitionProxy
 * of this test's own, and an application signed in to it. The folder goes when the test file ends.
 */
async function behindProxy(name: string, settings: Record<string, string>) {
  const line = await partitionProxy(new URL(process.env.TEST_DATABASE_URL!));
  const dir = newDataDir();
  after(() => removeDataDir(dir));
  const direct = databaseFor(dir)!;
  const throughProxy = new URL(direct);
  throughProxy.host = `127.0.0.1:${line.port}`;
  const env = serverEnv(dir, { DATABASE_URL: throughProxy.href, JOBS: 'off', ...settings });
  const server = await startServer(env);
  // The command line straight to PostgreSQL: it runs synchronously, and the proxy lives in this process.
  const app: OAuthApp = cli({ ...env, DATABASE_URL: direct }, 'app', 'add', '--name', name, '--redirect-uri', 'http://127.0.0.1:9/cb');
  const bearer = (await signInAs(server.url, app)).access_token;
  return { line, server, bearer, v1: api(server.url, bearer) };
}

/** Each request answers 503 with a JSON error and Retry-After, in less than `limitMs`. */
async function answer503Within(v1: V1, requests: readonly (readonly [method: 'GET' | 'POST', path: string, body?: unknown])[], limitMs: number) {
  for (const [method, path, body] of requests) {
    const started = Date.now();
    const request = method === 'GET' ? v1.get(path) : v1.post(path, body);
    const answer = await Promise.race([request, sleep(15_000).then(() => ({ status: 'none in 15 s', text: '', json: null, headers: new Headers() }))]);
    const took = Date.now() - started;
    assert.equal(answer.status, 503, `${method} ${path}: ${answer.status} ${answer.text}`);
    assert.equal(typeof answer.json?.error?.message, 'string', answer.text);
    assert.ok(answer.headers.get('retry-after'), 'a Retry-After header');
    assert.ok(took < limitMs, `${method} ${path} answered after ${took} ms`);
  }
}

/**
 * A TCP proxy to `url`'s server: `cut()` resets the connections through it and leaves new
 * ones unanswered; `silence()` leaves them all open and forwards nothing either way (a
 * line gone silent); `mend()` forwards again.
 */
async function partitionProxy(url: URL): Promise<{ port: number; cut(): void; silence(): void; mend(): void; close(): void }> {
  let cut = false;
  let silent = false;
  const through = new Set<Socket>();
  const held = new Set<Socket>();
  const server = createServer((socket) => {
    socket.on('error', () => {});
    if (cut || silent) {
      held.add(socket);
      return;
    }
    const upstream = connect(Number(url.port), url.hostname);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.on('data', (data) => void (silent || upstream.write(data)));
    upstream.on('data', (data) => void (silent || socket.write(data)));
    through.add(socket).add(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const drop = (sockets: Set<Socket>) => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      cut = true;
      drop(through);
    },
    silence: () => {
      silent = true;
    },
    mend: () => {
      cut = false;
      silent = false;
      drop(held);
    },
    close: () => {
      drop(through);
      drop(held);
      server.close();
    },
  };
}

/** Resolves once an import has products written and is still running (or after `limitMs`). */
async function midImport(url: string, limitMs: number): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    for (const until = Date.now() + limitMs; Date.now() < until; await sleep(30)) {
      const { rows } = await client.query(`SELECT 1 FROM imports i WHERE i.result = 'running' AND i.revision_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM products p WHERE p.model_id = i.model_id AND p.revision_id = i.revision_id) LIMIT 1`);
      if (rows.length) return;
    }
  } finally {
    await client.end();
  }
}

/** 1 when the model's latest revision, as a 3D viewer gets it (manifest, then each format), is not whole. */
async function incompleteFormats(base: string, bearer: string, project: string, model: string, revision: number): Promise<number> {
  const token = await fetch(`${base}/v2/projects/${project}/viewer3d/token`, { method: 'POST', headers: { Authorization: `Bearer ${bearer}` } });
  assert.equal(token.status, 201);
  const { url } = (await token.json()) as { url: string };
  const { models } = (await (await fetch(url)).json()) as { models: { id: string; revision: number; formats: { type: string; url: string; size?: number }[] }[] };
  const entry = models.find((m) => m.id === model);
  if (!entry || entry.revision !== revision || !entry.formats.length) return 1;
  for (const format of entry.formats) {
    const file = await fetch(new URL(format.url, url));
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (file.status !== 200 || bytes.length === 0) return 1;
    if (format.type.includes('scene')) {
      await checksums();
      const reader = new SceneReader();
      try {
        reader.push(bytes);
        reader.finish();
      } catch {
        return 1;
      }
    }
  }
  return 0;
}
