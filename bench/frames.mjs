#!/usr/bin/env node
// `npm run bench:frames [-- --models a,b --rounds N]`: frames and picks of a model's scene
// against its IFC, paired. The main bench draws each viewer in pages of its own, and there
// the software renderer's speed moves by 10-40 % from page to page and within a page
// (README, "Scenes against IFC"), more than the two differ. Here both load in one page
// (pages/ours-pair.js), each orbit frame and pick of the one is followed by the same of the
// other, and their order is swapped every step. A round is one full turn (the main bench's
// frames per turn) and picks at up to 20 points on the model; its ratio is the median, over
// its frames (or points) taken two by two (each format first in one of the two), of the
// scene's time over the IFC's beside it, which one slow frame does not move. Reported: the
// median of the rounds' ratios and their range, and whether both picked the same objects
// (`differing`: the first round's points where they did not). Default: every model, 5 rounds.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { CHROMIUM_FLAGS } from '../scripts/find-browser.mjs';
import { buildPages, convert, findChromium, log, median, modelUrl, orbitSteps, settle, startServer, withTimeout } from './run.mjs';
import { allModels, findModel, prepare } from './models.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const opts = { rounds: 5, models: null, out: path.join(BENCH, 'results', 'frames.json'), timeout: 600 };
for (let i = 2; i < process.argv.length; i++) {
  const [name, inline] = process.argv[i].split('=');
  const value = () => inline ?? process.argv[++i];
  if (name === '--rounds') opts.rounds = Math.max(1, Number(value()));
  else if (name === '--models') opts.models = value().split(',').filter(Boolean);
  else if (name === '--out') opts.out = path.resolve(value());
  else throw new Error(`Unknown option ${name} (--models, --rounds, --out)`);
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** One model: both formats in one page, `rounds` paired turns and pick rounds. */
async function measure(browser, base, model) {
  convert('ours-scene', model);
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 }, deviceScaleFactor: 1 });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.goto(`${base}/ours-pair.html`);
    await page.waitForFunction(() => globalThis.__pair?.ready);
    const steps = orbitSteps(model, {});
    const eyes = await page.evaluate(([urls, n]) => globalThis.__pair.open(urls, n), [{ ifc: model.url, scene: modelUrl('ours-scene', model) }, steps]);
    if (JSON.stringify(eyes.ifc) !== JSON.stringify(eyes.scene)) throw new Error(`the IFC and the scene frame different views: ${JSON.stringify(eyes)}`);
    const rounds = [];
    for (let round = 0; round < opts.rounds; round++) {
      await settle();
      const frames = await page.evaluate((r) => globalThis.__pair.orbit(r), round);
      const picks = await page.evaluate((r) => globalThis.__pair.pick(r), round);
      const same = picks.hits.ifc.filter((id, i) => id === picks.hits.scene[i]).length;
      // Steps two by two, each format first in one of them: the first frame after a pause
      // takes longer on small models, so frame by frame the ratios go up and down by 2x.
      const paired = (times) => median(times.ifc.slice(1).map((_, i) => (times.scene[i] + times.scene[i + 1]) / (times.ifc[i] + times.ifc[i + 1])));
      rounds.push({ frame: { ifc: mean(frames.ifc), scene: mean(frames.scene), ratio: paired(frames) }, pick: { ifc: mean(picks.times.ifc), scene: mean(picks.times.scene), ratio: paired(picks.times) }, same_hits: same, picks: picks.hits.ifc.length, differing: picks.hits.ifc.flatMap((id, i) => (id === picks.hits.scene[i] ? [] : [{ point: i, ifc: id, scene: picks.hits.scene[i] }])) });
      log(`  ${model.name} round ${round + 1}: frame ${rounds.at(-1).frame.ifc.toFixed(1)} / ${rounds.at(-1).frame.scene.toFixed(1)} ms, pick ${rounds.at(-1).pick.ifc.toFixed(2)} / ${rounds.at(-1).pick.scene.toFixed(2)} ms (IFC / scene; paired ratios ${rounds.at(-1).frame.ratio.toFixed(2)}, ${rounds.at(-1).pick.ratio.toFixed(2)}), ${same} of ${picks.hits.ifc.length} picks the same`);
    }
    const summary = (part) => {
      const ratios = rounds.map((r) => r[part].ratio);
      return { ifc_ms: median(rounds.map((r) => r[part].ifc)), scene_ms: median(rounds.map((r) => r[part].scene)), ratio: median(ratios), ratio_min: Math.min(...ratios), ratio_max: Math.max(...ratios) };
    };
    return { model: model.name, kind: model.kind, frames_per_turn: steps, rounds: rounds.length, frame: summary('frame'), pick: summary('pick'), same_hits: Math.min(...rounds.map((r) => r.same_hits)), picks: rounds[0].picks, differing: rounds[0].differing };
  } catch (e) {
    return { model: model.name, kind: model.kind, error: `${e.message.split('\n')[0]}${problems.length ? ` (page: ${problems[0].slice(0, 200)})` : ''}` };
  } finally {
    await withTimeout(page.close(), 15_000).catch(() => undefined);
  }
}

const models = (opts.models ? opts.models.map(findModel) : allModels()).map((m) => prepare(m, log));
buildPages(false);
const server = await startServer();
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: await findChromium(), headless: true, args: CHROMIUM_FLAGS });
const rows = [];
const started = performance.now();
try {
  for (const model of models) rows.push(await withTimeout(measure(browser, base, model), opts.timeout * 1000, `${model.name}: timeout after ${opts.timeout} s`).catch((e) => ({ model: model.name, error: e.message })));
} finally {
  await browser.close();
  server.close();
}
const result = { date: new Date().toISOString(), chromium: browser.version(), rounds: opts.rounds, rows, seconds: Math.round((performance.now() - started) / 1000) };
mkdirSync(path.dirname(opts.out), { recursive: true });
writeFileSync(opts.out, JSON.stringify(result, null, 2) + '\n');

const f = (x, d = 1) => (x === undefined ? '–' : x.toFixed(d));
const ratio = (s) => `${f(s.ratio, 2)} (${f(s.ratio_min, 2)}-${f(s.ratio_max, 2)})`;
process.stdout.write(`\n| model | frames per turn | frame ms: IFC / scene | ratio (range of ${opts.rounds} rounds) | pick µs: IFC / scene | ratio (range) | picks on the same object |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n`);
for (const r of rows) {
  const name = r.kind === 'generated' ? `${r.model} (generated)` : r.model;
  if (r.error) process.stdout.write(`| ${name} | error: ${r.error} | | | | | |\n`);
  else process.stdout.write(`| ${name} | ${r.frames_per_turn} | ${f(r.frame.ifc_ms)} / ${f(r.frame.scene_ms)} | ${ratio(r.frame)} | ${f(r.pick.ifc_ms * 1000)} / ${f(r.pick.scene_ms * 1000)} | ${ratio(r.pick)} | ${r.same_hits} of ${r.picks} |\n`);
}
process.stdout.write(`\nwrote ${path.relative(process.cwd(), opts.out)} in ${result.seconds} s\n`);
