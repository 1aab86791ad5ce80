/**
 * A streaming standby of a test server (pg-server.ts), as a team would run one for its hub: a
 * replication role on the primary, `pg_basebackup -R` into a second data folder (it writes
 * `primary_conninfo` and `standby.signal`), started on another port. Synchronous replication
 * names it in the primary's `synchronous_standby_names` (after the copy: a copy of that setting
 * would make the promoted standby wait for a standby of its own). `promote` makes it the primary.
 */
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asRoot, freePort, postgresUid, psqlOn, runPg, type PgServer } from './pg-server.js';

export interface PgStandby {
  port: number;
  /** Runs SQL as the superuser on the standby. */
  sql(statement: string, database?: string): string;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** `pg_ctl promote`: the standby leaves recovery and accepts writes. */
  promote(): void;
  /** Stops it (fast); `start` brings it back, still a standby until promoted. */
  stop(): void;
  start(): void;
  remove(): Promise<void>;
}

const APP_NAME = 'labeldesk_standby';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the primary sees the standby streaming (and, synchronous, as its sync standby). */
async function waitStreaming(primary: PgServer, synchronous: boolean): Promise<void> {
  const want = synchronous ? 'sync' : 'async';
  for (let i = 0; i < 600; i++) {
    const state = primary.sql(
      `SELECT state || ' ' || sync_state FROM pg_stat_replication WHERE application_name = '${APP_NAME}'`,
      'postgres',
    );
    if (state === `streaming ${want}`) return;
    await sleep(50);
  }
  throw new Error(`the standby did not start streaming (${want}) within 30 s`);
}

export async function startStandby(
  primary: PgServer,
  options: { synchronous: boolean },
): Promise<PgStandby> {
  const replPassword = randomBytes(18).toString('base64url');
  primary.sql(
    `CREATE ROLE labeldesk_repl REPLICATION LOGIN PASSWORD '${replPassword}'`,
    'postgres',
  );
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-pg-standby-'));
  if (asRoot) {
    const { uid, gid } = postgresUid();
    await chown(dir, uid, gid);
  }
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  runPg(
    'pg_basebackup',
    [
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '-d',
      `host=127.0.0.1 port=${primary.port} user=labeldesk_repl application_name=${APP_NAME}`,
    ],
    { PGPASSWORD: replPassword },
  );
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
  let running = false;
  const start = () => {
    runPg('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', opts, '-w', 'start']);
    running = true;
  };
  const stop = () => {
    if (!running) return;
    runPg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    running = false;
  };
  start();
  if (options.synchronous) {
    primary.sql(`ALTER SYSTEM SET synchronous_standby_names = '${APP_NAME}'`, 'postgres');
    primary.sql('SELECT pg_reload_conf()', 'postgres');
  }
  await waitStreaming(primary, options.synchronous);
  const standby = psqlOn(port, primary.superuser, primary.superPassword, primary.database);
  return {
    port,
    sql: standby,
    caughtUp: async () => {
      const target = primary.sql('SELECT pg_current_wal_lsn()', 'postgres');
      for (let i = 0; i < 600; i++) {
        const behind = standby(`SELECT pg_last_wal_replay_lsn() < '${target}'::pg_lsn`);
        if (behind === 'f') return;
        await sleep(50);
      }
      throw new Error('the standby did not catch up within 30 s');
    },
    promote: () => void runPg('pg_ctl', ['-D', data, '-w', 'promote']),
    stop,
    start,
    remove: async () => {
      try {
        stop();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
