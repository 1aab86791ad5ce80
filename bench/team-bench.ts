/**
 * `team`: a project's sync through a real PostgreSQL hub this bench starts (issue 25 "Figures").
 * The hub is first filled with a project of many files (LABELDESK_BENCH_TEAM_FILES, default
 * 20,000; 1,000,000 for the 1M files and 10M boxes), so every figure after it is taken at
 * that size. Then, each beside the bare operation in the same run:
 * - push: 10,000 edits made with the review's service, pushed by LabelDesk, vs. a bare client
 *   inserting the same rows (1,000 per statement, one transaction) into a plain table;
 * - pull: a desktop a day offline pulls and applies 50,000 changes on its pull thread, as the app
 *   does, vs. a bare read of the same rows plus a bare SQLite insert of them; meanwhile the main
 *   thread's longest event-loop stall and a review read of an item, each beside the same
 *   measured with nothing syncing;
 * - latency: 20 members in their own processes, save there → row here, vs. a bare NOTIFY to 20
 *   listening connections.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { startPullThread } from '../electron/core/team/pull-thread.js';
import { pushOutbox } from '../electron/core/team/team-sync.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import { fmt, printFigures, type Figure } from './report.js';
import {
  bareInsert,
  bareNotify,
  bareRead,
  PROJECT,
  SCHEMA,
  startBenchHub,
  type BenchHub,
} from './team-hub.js';
import { fillHub } from './team-hub-size.js';
import { buildBaseLibrary, memberLibrary, relabelImages } from './team-libraries.js';
import { teamLatency } from './team-latency.js';
import { idleMainLoop, sampleMainLoop } from './team-main-loop.js';

const PUSHED_IMAGES = 1000; // × 10 boxes: 10,000 edits
const OFFLINE_IMAGES = 5000; // × 10 boxes: 50,000 changes
const LATENCY_MEMBERS = 20;
const IDLE_MS = 3000;
const LATENCY_SECONDS = Number(process.env.LABELDESK_BENCH_TEAM_SECONDS ?? 20);

const pct = (xs: readonly number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const s = (ms: number) => `${fmt(ms / 1000, 2)} s`;

/** Bare SQLite: the pulled rows inserted with one prepared statement in one transaction. */
function bareSqliteInsert(file: string, rows: readonly Record<string, unknown>[]): number {
  const db = openDatabase(file);
  try {
    db.exec(`CREATE TABLE changes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
      member TEXT NOT NULL, box TEXT NOT NULL, content_hash TEXT NOT NULL, solution TEXT NOT NULL,
      parents TEXT NOT NULL, state TEXT, at INTEGER NOT NULL) STRICT`);
    const insert = db.prepare('INSERT INTO changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const t = performance.now();
    db.transaction(() => {
      for (const r of rows) {
        const p = r.payload as Record<string, unknown>;
        insert.run(
          Number(r.seq),
          r.id,
          r.member,
          p.box,
          p.contentHash,
          p.solution,
          JSON.stringify(p.parents),
          p.state === null ? null : JSON.stringify(p.state),
          p.at,
        );
      }
    })();
    return performance.now() - t;
  } finally {
    db.close();
  }
}

async function maxSeq(sql: postgres.Sql): Promise<number> {
  const [row] = await sql.unsafe<{ seq: string }[]>(
    `SELECT coalesce(max(seq), 0) AS seq FROM ${SCHEMA}.changes`,
  );
  return Number(row?.seq ?? 0);
}

export async function benchTeam(): Promise<void> {
  const files = Number(process.env.LABELDESK_BENCH_TEAM_FILES ?? 20_000);
  const load = loadavg()
    .map((l) => fmt(l, 2))
    .join(' ');
  const dir = await mkdtemp(join(tmpdir(), 'labeldesk-team-bench-'));
  const hub = await startBenchHub();
  const figures: Figure[] = [{ name: 'load average at start (1, 5, 15 min)', value: load }];
  try {
    const size = await fillHub(hub.sql, files);
    figures.push(
      {
        name: `hub filled: ${size.files.toLocaleString('en')} files, ${size.boxes.toLocaleString('en')} model boxes, ${size.changes.toLocaleString('en')} changes`,
        value: s(size.fillMs),
      },
      {
        name: 'bytes per box (answers: table + indexes + TOAST, / boxes)',
        value: `${fmt(size.answersBytes / size.boxes, 0)} B (answers ${fmt(size.answersBytes / 2 ** 20, 0)} MiB, files ${fmt(size.filesBytes / 2 ** 20, 0)} MiB, changes ${fmt(size.changesBytes / size.changes, 0)} B each)`,
      },
    );
    const base = buildBaseLibrary(dir, OFFLINE_IMAGES);
    const lead = await memberLibrary(base, dir, hub.lead, PROJECT);
    const leadHub = hub.lead.client();

    // Push: 10,000 edits, then the outbox to the hub.
    let t = performance.now();
    const edits = relabelImages(lead.store, { first: 0, end: PUSHED_IMAGES, round: 'push' });
    const editMs = performance.now() - t;
    const outbox = lead.store.team.outbox(edits);
    const before = await maxSeq(hub.sql);
    t = performance.now();
    const pushed = await pushOutbox(lead.store, leadHub);
    const pushMs = performance.now() - t;
    const bareInsertMs = await bareInsert(
      hub.sql,
      outbox.map(({ id, ...payload }) => ({ id, payload })),
    );
    figures.push(
      { name: `${edits} edits saved with the review's service`, value: s(editMs) },
      {
        name: `push of ${pushed} edits (bare insert of the same rows ${s(bareInsertMs)})`,
        value: `${s(pushMs)}, ${fmt(pushMs / bareInsertMs, 2)}× bare`,
        goal: '≤ 3× bare',
        met: pushMs <= 3 * bareInsertMs,
      },
    );

    // A day offline: 40,000 more edits go to the hub, then Bob pulls all 50,000.
    const bobMember = await hub.addMember('bob');
    const bob = await memberLibrary(base, dir, bobMember, PROJECT);
    bob.store.team.moveCursor(before, Date.now());
    relabelImages(lead.store, {
      first: PUSHED_IMAGES,
      end: OFFLINE_IMAGES,
      round: 'offline',
      perImage: true,
    });
    await pushOutbox(lead.store, leadHub);
    const bobHub = bobMember.client();
    // As the app pulls: on a thread of its own (pull-thread.ts); here, the app's main loop and a
    // review read of an item, idle first (bare) and then during the pull.
    const idle = await idleMainLoop(bob.store, OFFLINE_IMAGES, IDLE_MS);
    const thread = startPullThread({
      file: bob.file,
      hub: { address: bobMember.address, password: bobMember.password, project: PROJECT },
    });
    if (!thread) throw new Error('the pull thread is not built: npm run build:node');
    t = performance.now();
    const cpu = process.cpuUsage();
    const during = await sampleMainLoop(bob.store, OFFLINE_IMAGES, () => thread.pull());
    const pullMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const pullCpuMs = (used.user + used.system) / 1000;
    await thread.close();
    const pulled = during.result;
    const read = await bareRead(hub.sql, before);
    const bareSqliteMs = bareSqliteInsert(
      join(dir, 'bare.sqlite'),
      read.rows as Record<string, unknown>[],
    );
    const bareMs = read.ms + bareSqliteMs;
    const loop = during.loop;
    const readText = (xs: number[]) =>
      `p50 ${fmt(pct(xs, 0.5), 1)}, p95 ${fmt(pct(xs, 0.95), 1)} ms`;
    figures.push(
      {
        name: `pull and apply of ${pulled} changes on the pull thread (bare read ${s(read.ms)} + bare SQLite insert ${s(bareSqliteMs)})`,
        value: `${s(pullMs)} (this process's CPU, both threads, ${s(pullCpuMs)}), ${fmt(pullMs / bareMs, 2)}× bare`,
        goal: '≤ 5× bare',
        met: pullMs <= 5 * bareMs,
      },
      {
        name: `longest event-loop stall of the main thread during that pull (idle ${IDLE_MS / 1000} s before it, bare: ${fmt(idle.stallMs, 0)} ms, p99 ${fmt(idle.p99Ms, 0)} ms)`,
        value: `${fmt(loop.stallMs, 0)} ms (p99 of the loop's delay ${fmt(loop.p99Ms, 0)} ms)`,
        goal: '≤ 50 ms',
        met: loop.stallMs <= 50,
      },
      {
        name: `review read of an item during that pull, ${loop.reads.length} reads (idle, bare: ${readText(idle.reads)})`,
        value: readText(loop.reads),
        goal: 'p95 ≤ 2× idle',
        met: pct(loop.reads, 0.95) <= 2 * pct(idle.reads, 0.95),
      },
    );
    await leadHub.close();
    await bobHub.close();
    lead.store.close();
    bob.store.close();

    // Twenty members at once (LABELDESK_BENCH_TEAM_SECONDS=0 leaves them out).
    if (LATENCY_SECONDS > 0) figures.push(await latencyFigure(hub, base, dir));
    figures.push({
      name: 'load average at end (1, 5, 15 min)',
      value: loadavg()
        .map((l) => fmt(l, 2))
        .join(' '),
    });
  } finally {
    await hub.close();
    await rm(dir, { recursive: true, force: true });
  }
  printFigures('team (real PostgreSQL hub, started by the bench)', figures);
}

async function latencyFigure(hub: BenchHub, base: string, dir: string): Promise<Figure> {
  const cursor = await maxSeq(hub.sql);
  const bareNotifyMs = await bareNotify(hub.server, LATENCY_MEMBERS, 50);
  const latency = await teamLatency(hub, base, dir, {
    members: LATENCY_MEMBERS,
    seconds: LATENCY_SECONDS,
    cursor,
  });
  const p95 = pct(latency.samples, 0.95);
  const part = (xs: number[]) => `${fmt(pct(xs, 0.5), 0)}/${fmt(pct(xs, 0.95), 0)}`;
  const { wait, push, notify, apply } = latency.parts;
  return {
    name: `save → row on another desktop, ${latency.members} members (processes), ${latency.edits} edits, ${latency.samples.length} deliveries, ${latency.missing} missing (bare NOTIFY to ${LATENCY_MEMBERS} listeners p95 ${fmt(pct(bareNotifyMs, 0.95), 1)} ms)`,
    value: `p50 ${fmt(pct(latency.samples, 0.5), 0)} ms, p95 ${fmt(p95, 0)} ms, max ${fmt(Math.max(...latency.samples), 0)} ms; parts p50/p95: outbox wait ${part(wait)}, push ${part(push)}, push → wake-up there ${part(notify)}, wake-up → row ${part(apply)} ms`,
    goal: 'p95 ≤ 250 ms, none missing',
    met: p95 <= 250 && latency.missing === 0,
  };
}
