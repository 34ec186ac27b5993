import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleFile } from '../../samples/files.js';
import { openDatabase, one, type Database } from '../storage/database.js';
import { openBlobStore, type BlobStore } from '../storage/blobs.js';
import { migrate } from '../storage/migrate.js';
import { take } from '../jobs/queue.js';
import { ifcImportJob } from '../jobs/ifc-import.js';
import { BATCH_SIZE, readIfc, type ReadBatch, type ReadIfc } from '../jobs/read-ifc.js';
import { IfcReaderThreads } from '../jobs/ifc-reader.js';
import { decodePlans } from '../../src/core/formats/plans.js';
import { WARM_UP_READS } from '../jobs/warm-up.js';
import { registerImport } from '../services/imports.js';
import { createUser } from '../services/users.js';
import { createProject } from '../services/projects.js';
import { createModel } from '../services/models.js';
import { databaseFor, newDataDir, removeDataDir } from './harness.js';

/**
 * The import job on a real database (PGlite, or the run's PostgreSQL) and real web-ifc,
 * in this process, where a test can stop the reading between two batches: what a failure
 * or a dead worker in the middle of a big model's writing leaves behind.
 */
describe('the import job, between batches', () => {
  const dir = newDataDir();
  const file = sampleFile('office-2k').ifc; // more than two batches of products
  let db: Database;
  let blobs: BlobStore;
  let user: { userId: string; clientId: string };

  before(async () => {
    db = await openDatabase({ url: databaseFor(dir), dataDir: dir });
    await migrate(db);
    blobs = await openBlobStore({ dir: `${dir}/blobs` });
    user = { userId: (await createUser(db, 'jobs@example.com', 'Jobs', 'a long password')).id, clientId: 'none' };
  });

  after(async () => {
    await db?.close();
    removeDataDir(dir);
  });

  const newImport = async () => {
    const project = await createProject(db, user.userId, 'Batches');
    const model = await createModel(db, user.userId, project.id, 'Office');
    const token = await registerImport(db, blobs, user, model.id, { fileName: 'office-2k.ifc', comment: '' }, createReadStream(file), 2 ** 30);
    return { modelId: model.id, token };
  };
  /** The import job reading with `read` (real web-ifc, in this process by default); `afterBatch(n)` runs once batch n is written. */
  const job = (afterBatch: (n: number) => unknown = () => {}, read: ReadIfc = readIfc) => {
    let n = 0;
    const hooked = (sink: Parameters<ReadIfc>[2]) =>
      sink &&
      (async (batch: ReadBatch) => {
        await sink(batch);
        await afterBatch(++n);
      });
    return ifcImportJob(db, blobs, { maxProcessBytes: 2 ** 30, read: (bytes, base, sink, scenePath) => read(bytes, base, hooked(sink), scenePath) });
  };
  const state = async (modelId: string, token: string) => ({
    imp: await one(db, 'SELECT result, error, revision_id FROM imports WHERE token = $1', [token]),
    revisions: (await db.query('SELECT id, product_count FROM revisions WHERE model_id = $1', [modelId])).map((r) => ({ ...r })),
    products: Number((await one(db, 'SELECT count(*) AS n FROM products WHERE model_id = $1', [modelId]))!.n),
    definitions: Number((await one(db, 'SELECT count(*) AS n FROM definitions WHERE model_id = $1', [modelId]))!.n),
    lastRevision: (await one(db, 'SELECT last_revision FROM models WHERE id = $1', [modelId]))!.last_revision,
  });

  it('removes what it wrote and gives the revision number back when the file fails after two batches', async () => {
    const { modelId, token } = await newImport();
    let batches = 0;
    const failing = job((n) => {
      batches = n;
      if (n === 2) throw new Error('the reader stopped at product 2001');
    });
    const taken = (await take(db, 'w1', 60_000))!;
    assert.ok(taken, 'the upload queued a job');
    await failing(taken, 'w1');
    assert.equal(batches, 2);
    assert.deepEqual(await state(modelId, token), {
      imp: { result: 'error', error: 'the reader stopped at product 2001', revision_id: null },
      revisions: [],
      products: 0,
      definitions: 0,
      lastRevision: 0,
    });

    // The model's next import (through the server's reader thread) is its revision 1, and other
    // work gets a turn of the event loop before each batch is written, even when the writing
    // lags behind the reading (here: each batch holds the thread 100 ms, as a slow database
    // would) and the thread's messages queue up: Node handles queued messages in one go, and
    // PGlite answers without waiting on I/O, so requests would otherwise wait for the whole file.
    const next = await registerImport(db, blobs, user, modelId, { fileName: 'office-2k.ifc', comment: '' }, createReadStream(file), 2 ** 30);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const turnsAtBatch: number[] = [];
    const thread = new IfcReaderThreads();
    const slow = job(() => {
      turnsAtBatch.push(turns);
      const until = Date.now() + 100;
      while (Date.now() < until); // eslint-disable-line no-empty
    }, thread.read.bind(thread));
    try {
      await slow((await take(db, 'w1', 60_000))!, 'w1');
    } finally {
      await thread.close();
      clearInterval(ticker);
    }
    assert.ok(turnsAtBatch.length > 2);
    assert.deepEqual(turnsAtBatch, [...new Set(turnsAtBatch)], `timer turns seen at each batch: ${turnsAtBatch}`);
    const done = await state(modelId, next);
    assert.deepEqual(done.imp, { result: 'success', error: null, revision_id: 1 });
    assert.ok(done.products > 2 * BATCH_SIZE, String(done.products));
    assert.deepEqual(done.revisions, [{ id: 1, product_count: done.products }]);
  });

  it('hides a revision until its last batch, and lets a second worker take over a dead one\'s number and rows', async () => {
    const { modelId, token } = await newImport();
    let resume!: () => void;
    let stalled!: () => void;
    const atStall = new Promise<void>((resolve) => (stalled = resolve));
    // The first worker writes two batches, then stops as if its process had died.
    const first = job(async (n) => {
      if (n === 2) {
        stalled();
        await new Promise<void>((resolve) => (resume = resolve));
      }
    })((await take(db, 'dead', 1))!, 'dead');
    await atStall;
    const halfway = await state(modelId, token);
    assert.equal(halfway.products, 2 * BATCH_SIZE, 'two batches written');
    assert.deepEqual(halfway.revisions, [], 'no revision while products are still being written');
    assert.equal(halfway.imp?.result, 'running');

    await new Promise((r) => setTimeout(r, 20)); // the 1 ms lease has run out
    const second = (await take(db, 'alive', 60_000))!;
    assert.equal(second.attempts, 2);
    await job()(second, 'alive');
    const done = await state(modelId, token);
    assert.deepEqual(done.imp, { result: 'success', error: null, revision_id: 1 });
    assert.deepEqual(done.revisions, [{ id: 1, product_count: done.products }]);
    assert.equal(done.lastRevision, 1);
    const seqs = await db.query('SELECT min(seq) AS lo, max(seq) AS hi, count(DISTINCT seq) AS n FROM products WHERE model_id = $1', [modelId]);
    assert.deepEqual(seqs.map((r) => [Number(r.lo), Number(r.hi), Number(r.n)]), [[1, done.products, done.products]]);

    // The first worker wakes up: its next write finds the job taken over, and changes nothing.
    resume();
    await assert.rejects(first, /taken over/);
    assert.deepEqual(await state(modelId, token), done);
  });
});

describe('the reader threads', () => {
  const file = sampleFile('house').ifc;
  /** Products, scene and plans of `file` read with `read`. */
  const output = async (read: ReadIfc) => {
    const batches: ReadBatch[] = [];
    const files = { scene: path.join(tmpdir(), `threads-scene-${process.pid}`), plans: path.join(tmpdir(), `threads-plans-${process.pid}`) };
    try {
      const summary = await read(new Uint8Array(readFileSync(file)), 2 ** 32, async (batch) => void batches.push(batch), files);
      return { summary, products: batches.flatMap((b) => JSON.parse(b.products) as { globalId: string }[]).map((p) => p.globalId), scene: readFileSync(files.scene), plans: readFileSync(files.plans) };
    } finally {
      for (const f of Object.values(files)) rmSync(f, { force: true });
    }
  };

  it('warm up on the generated house, and write what one thread alone writes (the doors\' symbols, spaces\' names and product table sent across), in two threads or, past parallelMaxBytes, one', async () => {
    const warm = new IfcReaderThreads();
    const cold = new IfcReaderThreads({ warmUp: false });
    // A file over parallelMaxBytes (PARALLEL_READ_MAX_BYTES) goes to one thread, products and then files.
    const one = new IfcReaderThreads({ warmUp: false, parallelMaxBytes: 0 });
    try {
      assert.deepEqual(await warm.start(), [WARM_UP_READS, WARM_UP_READS]);
      assert.deepEqual(await cold.start(), [0, 0]);
      const alone = await output(readIfc);
      assert.ok(alone.products.length > 0);
      const plan = decodePlans(alone.plans, '0');
      assert.ok(plan.storeys.some((s) => s.symbols.owners.length > 0), 'the house has door symbols');
      assert.ok(new Set(plan.spaces.map((s) => s.name)).size > 1, 'and spaces of different names');
      for (const [name, threads] of [['warmed up', warm], ['cold', cold]] as const) {
        const { summary, products, scene, plans } = await output(threads.read.bind(threads));
        assert.deepEqual(products, alone.products, `${name}: the products`);
        assert.equal(summary.products, alone.summary.products);
        assert.ok(scene.equals(alone.scene), `${name}: the same scene, byte for byte`);
        assert.ok(plans.equals(alone.plans), `${name}: the same plans, byte for byte`);
      }
      const { summary, products, scene, plans } = await output(one.read.bind(one));
      assert.equal(one.threadsStarted, 1, 'over parallelMaxBytes: one thread');
      assert.deepEqual(products, alone.products, 'one thread: the products');
      assert.equal(summary.products, alone.summary.products);
      assert.ok(scene.equals(alone.scene) && plans.equals(alone.plans), 'one thread: the same scene and plans');
    } finally {
      await Promise.all([warm.close(), cold.close(), one.close()]);
    }
  });

  it('replace a thread that failed at once, and no other: the next file finds both warmed up', async () => {
    const threads = new IfcReaderThreads();
    try {
      assert.deepEqual(await threads.start(), [WARM_UP_READS, WARM_UP_READS]);
      assert.equal(threads.threadsStarted, 2);
      const bytes = readFileSync(file);
      const cut = new Uint8Array(bytes.subarray(0, bytes.length >> 1));
      const files = { scene: path.join(tmpdir(), `threads-cut-scene-${process.pid}`), plans: path.join(tmpdir(), `threads-cut-plans-${process.pid}`) };
      await assert.rejects(threads.read(cut, 0, async () => {}, files), /truncated/i);
      for (const f of Object.values(files)) rmSync(f, { force: true });
      // Both threads failed on the cut file and were replaced once each, warming up since
      // (before, the failure's catch ended those replacements too: five had started here).
      assert.deepEqual(await threads.start(), [WARM_UP_READS, WARM_UP_READS]);
      assert.equal(threads.threadsStarted, 4);
      assert.ok((await output(threads.read.bind(threads))).products.length > 0);
      assert.equal(threads.threadsStarted, 4);
    } finally {
      await threads.close();
    }
  });

  it('replace both threads after a big file once it is done, not while the other thread still reads it', async () => {
    const threads = new IfcReaderThreads({ recycleBytes: 0 });
    try {
      await threads.start();
      // What threadsStarted was while the file was read (the products thread ends first: before, its replacement started then).
      const during = new Set<number>();
      const poll = setInterval(() => during.add(threads.threadsStarted), 1);
      const read = await output(threads.read.bind(threads)).finally(() => clearInterval(poll));
      assert.ok(read.products.length > 0);
      assert.deepEqual([...during], [2]);
      assert.equal(threads.threadsStarted, 4);
      assert.deepEqual(await threads.start(), [WARM_UP_READS, WARM_UP_READS], 'the replacements warm up');
      assert.deepEqual((await output(threads.read.bind(threads))).products, read.products);
      assert.equal(threads.threadsStarted, 6);
    } finally {
      await threads.close();
    }
  });
});
