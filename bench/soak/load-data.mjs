// The data a load run works on, made through the API as clients would: a platform
// project with a model revision of a generated office, and an issue board in it with a
// few hundred topics of varied statuses, types, priorities, stages, labels, assignees
// and dates (some of them edited, so they have a modified date).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { api, cli, signInAs, startServer } from '../../server/test/harness.ts';
import { findModel, prepare } from '../models.mjs';

export const STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed'];
export const TYPES = ['Issue', 'Clash', 'Request', 'Remark'];
export const PRIORITIES = ['Low', 'Normal', 'High', 'Critical'];
export const LABELS = ['Architecture', 'Structure', 'MEP', 'Coordination'];
export const STAGES = ['Design', 'Tender', 'Construction', 'Handover'];
export const MEMBERS = Array.from({ length: 6 }, (_, i) => ({ email: `member${i + 1}@example.com`, password: `member password ${i + 1}` }));
const SUBJECTS = ['duct', 'beam', 'wall', 'door', 'slab', 'pipe', 'stair', 'window', 'column', 'ceiling'];
const PROBLEMS = ['clashes with', 'is missing above', 'is too close to', 'needs a fire rating like', 'does not line up with'];

/** A small pseudo-random generator, so two runs make the same topics. */
export function random(seed = 1) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const bcfDate = (ms) => new Date(ms).toISOString().replace('Z', '+0000');

/** Runs `fn` over `items`, `limit` at a time. */
export async function inParallel(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  }));
  return results;
}

/** A JSON call under /bcf with a Bearer token; throws unless the status is the one expected. */
export function bcf(base, token) {
  return async (method, pathAndQuery, body, expected = method === 'POST' ? 201 : 200) => {
    const answer = await fetch(`${base}/bcf${pathAndQuery}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (answer.status !== expected) throw new Error(`${method} ${pathAndQuery}: ${answer.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/**
 * An application, the server, a project with its board, users made members of it (by
 * the cli: on PGlite the server stops for it, one process at a time opens the folder).
 * Resolves with `{server, token, app, project, board}`.
 */
export async function startWithBoard(env, log) {
  const app = cli(env, 'app', 'add', '--name', 'load', '--redirect-uri', 'http://127.0.0.1:9/cb');
  let server = await startServer(env);
  let token = (await signInAs(server.url, app)).access_token;
  const project = (await api(server.url, token).post('/projects/new', { name: 'Load' })).json;
  const board = await bcf(server.url, token)('POST', '/2.0/projects', { name: 'Load board', platform_project_id: project.id });
  const pglite = !env.DATABASE_URL;
  if (pglite) await server.stop();
  // After the first start: the platform makes the administrator only when there is no user yet.
  for (const m of MEMBERS) cli(env, 'user', 'add', '--email', m.email, '--password', m.password, '--name', m.email.split('@')[0]);
  for (const m of MEMBERS) cli(env, 'member', 'add', '--project', project.id, '--email', m.email, '--role', 'member');
  if (pglite) {
    server = await startServer(env);
    token = (await signInAs(server.url, app)).access_token;
  }
  log(`server on ${server.url} (pid ${server.process.pid}), board ${board.project_id}`);
  return { server, token, app, project, board };
}

/** Imports the generated model into the project; resolves with `{modelId, products, globalIds}`. */
export async function importModel(base, token, projectId, name, log) {
  const client = api(base, token);
  const file = prepare(findModel(name), log).file;
  const model = (await client.post(`/models/new?project_id=${projectId}`, { name })).json;
  const started = Date.now();
  const upload = await client.upload(model.id, path.basename(file), readFileSync(file));
  if (upload.status !== 200) throw new Error(`upload: ${JSON.stringify(upload.json)}`);
  const status = await client.waitForImport(upload.json.token, 30 * 60_000);
  if (status.json?.result !== 'success') throw new Error(`import: ${JSON.stringify(status.json)}`);
  // Count the products by the last page (a binary search would be quicker; the pages are cheap).
  let products = 0;
  for (let page = 1; ; page++) {
    const list = (await client.get(`/revision/products?model_id=${model.id}&per_page=1000&page=${page}`)).json;
    products += list.length;
    if (list.length < 1000) break;
  }
  const sample = (await client.get(`/revision/products?model_id=${model.id}&per_page=1000&page=1`)).json;
  const globalIds = sample.map((p) => p.globalId).filter(Boolean);
  log(`${name}: ${products} products, imported in ${Math.round((Date.now() - started) / 1000)} s`);
  return { modelId: model.id, products, globalIds };
}

/**
 * `count` topics on the board, eight at a time, dated over the past year; every third
 * is edited afterwards (status moved on), so modified_date is set on a third of them.
 * Resolves with the topics' guids and the dates a filter can split them on.
 */
export async function createTopics(base, token, boardId, count, log) {
  const call = bcf(base, token);
  const rand = random(22);
  const now = Date.now();
  const year = 365 * 24 * 3600 * 1000;
  const bodies = Array.from({ length: count }, (_, i) => {
    const subject = pick(rand, SUBJECTS);
    const labels = LABELS.filter(() => rand() < 0.35);
    return {
      guid: randomUUID(),
      title: `${subject[0].toUpperCase()}${subject.slice(1)} ${pick(rand, PROBLEMS)} the ${pick(rand, SUBJECTS)} near axis ${String.fromCharCode(65 + (i % 8))}${1 + (i % 12)}`,
      topic_status: pick(rand, STATUSES),
      topic_type: pick(rand, TYPES),
      priority: rand() < 0.8 ? pick(rand, PRIORITIES) : undefined,
      stage: rand() < 0.7 ? pick(rand, STAGES) : undefined,
      labels,
      assigned_to: rand() < 0.85 ? pick(rand, MEMBERS).email : undefined,
      creation_date: bcfDate(now - year + (i / count) * year),
      due_date: rand() < 0.6 ? bcfDate(now + (rand() - 0.3) * year) : undefined,
      description: rand() < 0.5 ? `Found in the coordination model, round ${1 + (i % 9)}.` : undefined,
      index: i,
    };
  });
  const started = Date.now();
  await inParallel(bodies, 8, (body) => call('POST', `/2.1/projects/${boardId}/topics`, body));
  const edited = bodies.filter((_, i) => i % 3 === 0);
  await inParallel(edited, 8, (body) => call('PUT', `/2.1/projects/${boardId}/topics/${body.guid}`, { ...body, topic_status: STATUSES[(STATUSES.indexOf(body.topic_status) + 1) % STATUSES.length] }));
  log(`${count} topics (${edited.length} edited) in ${Math.round((Date.now() - started) / 1000)} s`);
  return { guids: bodies.map((b) => b.guid), creationMid: bcfDate(now - year / 2), now: bcfDate(now) };
}

