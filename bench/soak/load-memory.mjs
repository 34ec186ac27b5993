// The server process's memory during a load run, read from /proc/<pid>/status once a
// second: VmRSS (all it holds) and RssAnon (its heaps: V8's, malloc's and wasm's; no
// mapped files). A leak shows as a level that keeps rising once the load is steady.
import { readFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** The process's resident memory in bytes: `{rss, anon}`. */
export function readMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kB('VmRSS'), anon: kB('RssAnon') };
}

/** Samples every `intervalMs` until stop(); stop() resolves with the samples `{t (s), rss, anon}`. */
export function sampleMemory(pid, intervalMs = 1000) {
  const start = performance.now();
  const samples = [];
  const take = () => {
    try {
      samples.push({ t: (performance.now() - start) / 1000, ...readMemory(pid) });
    } catch {
      // The process is gone: the run says so through its errors.
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Least-squares slope of `ys` over `xs` (per unit of x). */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0, den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den ? num / den : 0;
}

/**
 * What the samples say, in MB: start, end, max; the slope over the second half (MB per
 * minute); and whether memory grows: the last third's median above the middle third's by
 * more than `thresholdPct` percent (and `floorMB`: a few MB more of a small total is
 * noise, not a leak). The first third is the warm-up (JIT, pools, caches
 * filling) and is left out of the judgement.
 */
export function memoryFigures(samples, key = 'rss', thresholdPct = 10, floorMB = 8) {
  const values = samples.map((s) => s[key] / MB);
  const times = samples.map((s) => s.t);
  const third = Math.floor(values.length / 3);
  const half = Math.floor(values.length / 2);
  const middle = values.length >= 3 ? median(values.slice(third, 2 * third)) : values[0];
  const last = values.length >= 3 ? median(values.slice(2 * third)) : values.at(-1);
  const growthPct = ((last - middle) / middle) * 100;
  const round = (x) => Math.round(x * 10) / 10;
  return {
    startMB: round(values[0]),
    endMB: round(values.at(-1)),
    maxMB: round(Math.max(...values)),
    secondHalfSlopeMBPerMin: round(slope(times.slice(half), values.slice(half)) * 60),
    middleThirdMedianMB: round(middle),
    lastThirdMedianMB: round(last),
    growthPct: round(growthPct),
    thresholdPct,
    grows: growthPct > thresholdPct && last - middle > floorMB,
    samples: values.length,
    // Every tenth sample: enough to see a plateau from a climb.
    everyTenSecondsMB: values.filter((_, i) => i % 10 === 0).map((v) => Math.round(v)),
  };
}

/**
 * The private memory (RssAnon) of the PostgreSQL backends serving one database, summed:
 * the server's pool connections. Shared buffers a backend touched count in its RSS but
 * not here, so what grows here is the backends' own: plans, prepared statements, caches.
 * Read from /proc (the backends run on this machine); `pg` is the client that asks.
 */
export async function backendMemory(client) {
  const rows = (await client.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")).rows;
  let anon = 0;
  for (const { pid } of rows) {
    try {
      anon += readMemory(pid).anon;
    } catch {
      // A backend that ended between the query and the read.
    }
  }
  return { backends: rows.length, anon };
}

/** Samples backendMemory every `intervalMs`; stop() resolves with `{t, rss: anon, anon}` samples (rss = anon, for memoryFigures). */
export function sampleBackendMemory(client, intervalMs = 1000) {
  const start = performance.now();
  const samples = [];
  let busy = false;
  const take = async () => {
    if (busy) return;
    busy = true;
    try {
      const { anon, backends } = await backendMemory(client);
      samples.push({ t: (performance.now() - start) / 1000, rss: anon, anon, backends });
    } catch {
      // The database is gone: the run says so through its errors.
    } finally {
      busy = false;
    }
  };
  void take();
  const timer = setInterval(take, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 10));
      await take();
      return samples;
    },
  };
}
