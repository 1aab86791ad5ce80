/**
 * A real PostgreSQL server for tests: `initdb` into a temp folder, password auth
 * (scram-sha-256), a free port on 127.0.0.1 and its socket in the same folder, started and stopped
 * with `pg_ctl`. initdb refuses to run as root, so as root every server command runs as the
 * `postgres` user Debian's package creates (the folder is handed to it first).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PG_BIN = process.env.LABELDESK_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PgServer {
  host: '127.0.0.1';
  port: number;
  /** The superuser's name and password (superuser only for setting roles up). */
  superuser: string;
  superPassword: string;
  /** The database the tests use. */
  database: string;
  /** A `postgresql://` URL for `role` with `password` (percent-encoded). */
  url(role: string, password: string, database?: string): string;
  /** Runs SQL as the superuser through psql (one statement per call when it cannot run in a transaction). */
  sql(statement: string, database?: string): string;
  /** Creates a login role with a password; returns the password. `createSchema`: may create schemas in the test database (a hub's lead). */
  createRole(role: string, options?: { createSchema?: boolean }): string;
  /** Stops the server (fast shutdown); `start` brings it back on the same port and data. */
  stop(): void;
  start(): void;
  /** Kills the server as a crash would (`pg_ctl stop -m immediate`: no shutdown checkpoint). */
  kill(): void;
  /** With `tls`: the CA that signed the server's certificate (for 127.0.0.1), and another CA. */
  caFile?: string;
  otherCaFile?: string;
  /** The server's data folder (a standby is made from it: pg-standby.ts). */
  dataDir: string;
  /** Stops and removes everything. */
  remove(): Promise<void>;
}

export const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a server binary, as the `postgres` user when we are root. */
export function runPg(
  binary: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): string {
  const path = join(PG_BIN, binary);
  const options = { encoding: 'utf8' as const, env: { ...process.env, ...env }, timeout: 60_000 };
  if (!asRoot) return execFileSync(path, args, options);
  // `su -s /bin/sh postgres -c 'exec "$0" "$@"' path args…` passes every argument unquoted-safe.
  return execFileSync(
    'su',
    ['-s', '/bin/sh', 'postgres', '-c', 'exec "$0" "$@"', '--', path, ...args],
    options,
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;
const newPassword = () => randomBytes(18).toString('base64url');

export function postgresUid(): { uid: number; gid: number } {
  const [uid, gid] = ['-u', '-g'].map((flag) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()),
  );
  return { uid: uid as number, gid: gid as number };
}

/** A CA (cert and key) in `dir` named `name`. */
function makeCa(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.pem`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** A CA and a server certificate for 127.0.0.1 signed by it; the server's files owned by its user. */
async function makeTls(dir: string): Promise<{ ca: string; otherCa: string; opts: string }> {
  const ca = makeCa(dir, 'labeldesk-test-ca');
  const otherCa = makeCa(dir, 'labeldesk-other-ca');
  const key = join(dir, 'server.key');
  const csr = join(dir, 'server.csr');
  const cert = join(dir, 'server.crt');
  const ext = join(dir, 'server.ext');
  await writeFile(ext, 'subjectAltName=IP:127.0.0.1\n');
  execFileSync(
    'openssl',
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', csr],
    { stdio: 'ignore' },
  );
  execFileSync(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      ext,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  await chmod(key, 0o600);
  if (asRoot) {
    const { uid, gid } = postgresUid();
    await chown(key, uid, gid);
    await chown(cert, uid, gid);
  }
  return {
    ca: ca.cert,
    otherCa: otherCa.cert,
    opts: ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`,
  };
}

/** Runs SQL through psql as `user` on the server at `port` (127.0.0.1). */
export function psqlOn(port: number, user: string, password: string, database: string) {
  return (statement: string, db = database): string =>
    runPg(
      'psql',
      [
        '-X',
        '-q',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        user,
        '-d',
        db,
        '-c',
        statement,
      ],
      { PGPASSWORD: password },
    ).trim();
}

/** Initialises and starts a fresh server with one database, `labeldesk_test`; with `tls`, TLS on. */
export async function startPgServer(options: { tls?: boolean } = {}): Promise<PgServer> {
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-pg-'));
  const data = join(dir, 'data');
  const superuser = 'labeldesk_super';
  const superPassword = newPassword();
  const pwfile = join(dir, 'pwfile');
  await writeFile(pwfile, `${superPassword}\n`, { mode: 0o600 });
  if (asRoot) {
    const { uid, gid } = postgresUid();
    await chown(dir, uid, gid);
    await chown(pwfile, uid, gid);
  }
  await chmod(dir, 0o700);
  runPg('initdb', [
    '-D',
    data,
    '-U',
    superuser,
    '-A',
    'scram-sha-256',
    '--pwfile',
    pwfile,
    '-E',
    'UTF8',
    '--no-instructions',
  ]);
  await rm(pwfile);
  const port = await freePort();
  const database = 'labeldesk_test';
  const logFile = join(dir, 'server.log');
  const tls = options.tls ? await makeTls(dir) : undefined;
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off${tls?.opts ?? ''}`;
  let running = false;
  const start = () => {
    runPg('pg_ctl', ['-D', data, '-l', logFile, '-o', opts, '-w', 'start']);
    running = true;
  };
  const stop = () => {
    if (!running) return;
    runPg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  const kill = () => {
    if (!running) return;
    runPg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    running = false;
  };
  start();
  const psql = psqlOn(port, superuser, superPassword, database);
  psql(`CREATE DATABASE ${quoteIdent(database)}`, 'postgres');
  return {
    host: '127.0.0.1',
    port,
    superuser,
    superPassword,
    database,
    url: (role, password, db = database) =>
      `postgresql://${encodeURIComponent(role)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(db)}`,
    sql: psql,
    createRole: (role, options = {}) => {
      const password = newPassword();
      psql(`CREATE ROLE ${quoteIdent(role)} LOGIN PASSWORD ${quoteLiteral(password)}`);
      if (options.createSchema) {
        psql(`GRANT CREATE ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(role)}`);
      }
      return password;
    },
    stop,
    start,
    kill,
    dataDir: data,
    ...(tls ? { caFile: tls.ca, otherCaFile: tls.otherCa } : {}),
    remove: async () => {
      try {
        stop();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
