// A PostgreSQL server of its own for one test or bench run: initdb on a temporary folder,
// started on a free port (loopback, trust authentication), stopped and removed after.
// As root, PostgreSQL refuses to run: the cluster then belongs to the `postgres` user
// (Debian's package creates it). Finds PostgreSQL 15+ under /usr/lib/postgresql or PG_BIN.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/** The folder of PostgreSQL's programs (initdb, pg_ctl), or undefined when none is installed. */
export function findPostgres() {
  if (process.env.PG_BIN) return existsSync(path.join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => Number(v) >= 15).sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((v) => path.join(root, v, 'bin')).find((b) => existsSync(path.join(b, 'initdb')));
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a cluster; resolves with `{ url, stop() }`. `url` names the `postgres` database. */
export async function startTemporaryPostgres(bin = findPostgres()) {
  if (!bin) throw new Error('PostgreSQL 15 or later is not installed (apt-get install postgresql-15, or set PG_BIN)');
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'bim-postgres-'));
  const data = path.join(dir, 'data');
  const run = (program, args) => {
    const command = [path.join(bin, program), ...args];
    const result = root
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')], { encoding: 'utf8' })
      : spawnSync(command[0], command.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
  };
  if (root) {
    chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout));
    chmodSync(dir, 0o700);
  }
  const user = root ? 'postgres' : userInfo().username;
  run('initdb', ['-D', data, '-U', user, '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://${user}@127.0.0.1:${port}/postgres`,
    /** Stops the server as a crash would (clients' connections cut), keeping its data: `start()` brings it back on the same port. */
    halt() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    start() {
      run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
