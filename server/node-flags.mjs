// @ts-check
/**
 * The Node flags of a process that runs imports: the platform server (`npm start`,
 * `npm run start:server`) and `npm run worker`; the tests' and benchmarks' servers take the
 * same (server/test/harness.ts, bench/server.mjs). package.json's and server/package.json's
 * scripts write them out too.
 *
 * --single-threaded-gc: V8 collects garbage in the thread that made it, without helper
 * threads. An import reads in two threads at once (jobs/ifc-reader.ts), and on two cores
 * the helpers only took CPU from them: office-20k 2.3-2.6 -> 2.1 s, office-200k 27.5 ->
 * 22.6 s, a fifth less CPU in all. Product pages under load did not get slower; the
 * process's peak memory is 40-120 MB higher.
 */
export const NODE_FLAGS = ['--single-threaded-gc'];
