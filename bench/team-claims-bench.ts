/**
 * `team-claims` (issue 26 §2): 20 members claim work at once from a real PostgreSQL hub this
 * bench starts, each on their own connection as their own role, a batch of files per call
 * (LabelDesk's `claim_work`: row security, leases, assignments, the reaping of ended leases), vs.
 * a bare `UPDATE … FROM (SELECT … ORDER BY priority LIMIT n FOR UPDATE SKIP LOCKED)` on a plain
 * table of the same files by 20 plain connections, in the same run. Goal: ≤ 3× the bare claim's
 * p95, and ≤ 50 ms p95.
 */
import { loadavg } from 'node:os';
import postgres from 'postgres';
import { HubClient } from '../electron/core/team/hub-client.js';
import { claimWork, ensureWorkSchema, grantWork } from '../electron/core/team/hub-work.js';
import { startPgServer } from '../test/support/pg-server.js';
import { fmt, printFigures } from './report.js';

const CLAIMERS = 20;
const BATCH = Number(process.env.LABELDESK_BENCH_CLAIM_BATCH ?? 20);
const ROUNDS = Number(process.env.LABELDESK_BENCH_CLAIM_ROUNDS ?? 50);
const FILES = CLAIMERS * BATCH * ROUNDS;
const SCHEMA = 'labeldesk_claims';
const S = `"${SCHEMA}"`;

const pct = (xs: readonly number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

/** Each claimer calls `claim` ROUNDS times at once with the others; per-call ms, and the total. */
async function race(
  claimers: readonly ((n: number) => Promise<number>)[],
): Promise<{ ms: number[]; claimed: number; wallMs: number }> {
  const ms: number[] = [];
  let claimed = 0;
  const start = performance.now();
  await Promise.all(
    claimers.map(async (claim) => {
      for (let r = 0; r < ROUNDS; r++) {
        const t = performance.now();
        const n = await claim(BATCH);
        claimed += n;
        ms.push(performance.now() - t);
      }
    }),
  );
  return { ms, claimed, wallMs: performance.now() - start };
}

export async function benchTeamClaims(): Promise<void> {
  const server = await startPgServer();
  const open: postgres.Sql[] = [];
  const connect = (role: string, password: string) => {
    const sql = postgres(server.url(role, password), { max: 1, onnotice: () => undefined });
    open.push(sql);
    return sql;
  };
  try {
    const leadPassword = server.createRole('lead', { createSchema: true });
    const lead = new HubClient({
      address: `postgresql://lead@127.0.0.1:${server.port}/${server.database}`,
      password: leadPassword,
      project: 'claims',
    });
    await lead.createProject('claims', '/data');
    await lead.use((sql) => ensureWorkSchema(sql, SCHEMA));
    const members: postgres.Sql[] = [];
    for (let i = 0; i < CLAIMERS; i++) {
      const name = `m${i}`;
      const password = server.createRole(name);
      await lead.addMember(name, 'annotator');
      await lead.use((sql) => grantWork(sql, SCHEMA, name, 'annotator'));
      members.push(connect(name, password));
    }
    const files = Array.from({ length: FILES }, (_, i) => ({
      contentHash: `h${i}`,
      relPath: `d/${i}.jpg`,
      size: 1,
      kind: 'image' as const,
      width: 1,
      height: 1,
    }));
    for (let i = 0; i < FILES; i += 10_000) await lead.addFiles(files.slice(i, i + 10_000));
    await lead.close();

    // The bare baseline: the same files in a plain table, no row security, no leases.
    const su = connect(server.superuser, server.superPassword);
    await su.unsafe(`
      CREATE TABLE bare_work (content_hash text PRIMARY KEY, priority float8 NOT NULL, holder name);
      CREATE INDEX bare_open ON bare_work (priority DESC, content_hash) WHERE holder IS NULL;
      INSERT INTO bare_work SELECT 'h' || g, 0, NULL FROM generate_series(0, ${FILES - 1}) g;`);
    for (const table of ['bare_work', `${S}.work`]) await su.unsafe(`VACUUM ANALYZE ${table}`);
    const bareConnections = Array.from({ length: CLAIMERS }, () =>
      connect(server.superuser, server.superPassword),
    );
    const bare = await race(
      bareConnections.map(
        (sql, i) => async (n: number) =>
          (
            await sql.unsafe(
              `UPDATE bare_work b SET holder = $2 FROM (SELECT content_hash FROM bare_work
               WHERE holder IS NULL ORDER BY priority DESC, content_hash LIMIT $1
               FOR UPDATE SKIP LOCKED) p
             WHERE b.content_hash = p.content_hash RETURNING b.content_hash`,
              [n, `m${i}`],
            )
          ).length,
      ),
    );
    const ours = await race(
      members.map((sql) => async (n: number) => (await claimWork(sql, S, n)).length),
    );
    const [dupes] = await su.unsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM (SELECT content_hash FROM ${S}.work
         WHERE holder IS NOT NULL GROUP BY content_hash HAVING count(*) > 1) d`,
    );
    const p95 = pct(ours.ms, 0.95);
    const bareP95 = pct(bare.ms, 0.95);
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    printFigures('team-claims', [
      {
        name: `claim ${BATCH} files, ${CLAIMERS} concurrent claimers × ${ROUNDS} calls, p50 / p95`,
        value: `${fmt(pct(ours.ms, 0.5))} / ${fmt(p95)} ms, ${fmt(p95 / bareP95, 2)}× a bare SKIP LOCKED claim's ${fmt(pct(bare.ms, 0.5))} / ${fmt(bareP95)} ms (${ours.claimed} and ${bare.claimed} files claimed, ${dupes?.n ?? '?'} given twice; load ${load})`,
        goal: '≤ 3× bare p95 and ≤ 50 ms p95',
        met: p95 <= 3 * bareP95 && p95 <= 50 && dupes?.n === 0,
      },
      {
        name: `files claimed per second, ${CLAIMERS} claimers at once`,
        value: `${fmt((ours.claimed / ours.wallMs) * 1000, 0)}, bare ${fmt((bare.claimed / bare.wallMs) * 1000, 0)}`,
      },
    ]);
  } finally {
    for (const sql of open) await sql.end({ timeout: 2 }).catch(() => undefined);
    await server.remove();
  }
}
