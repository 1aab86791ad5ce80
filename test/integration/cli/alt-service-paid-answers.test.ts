/**
 * Issue 16 §3 through the alt test service: a charged answer LabelDesk cannot read is kept raw
 * with its file ("answer not understood"), counted, never sent again without a person asking,
 * and read again with no network once the reading improves; a 202 whose other fields do not fit
 * still yields its job, which survives a crash and can be cancelled.
 */
import Database from 'better-sqlite3';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import type { AltVariant } from '../../support/alt-service/alt-forms.js';
import {
  expectServedBoxesStored,
  ledgerFrames,
  rawAnswerCount,
} from '../../support/alt-service/alt-library.js';
import {
  cliEnv,
  cliHome,
  lastJson,
  runCli,
  startCli,
  until,
  type SummaryJson,
} from '../../support/cli-run.js';
import { clip, jpeg } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

let media: { dir: string; remove: () => Promise<void> };
let images: string;
let clips: string;

beforeAll(async () => {
  media = await tempDir('alt-paid-');
  images = join(media.dir, 'images');
  clips = join(media.dir, 'clips');
  await mkdir(images);
  await mkdir(clips);
  await writeFile(join(images, 'a.jpg'), await jpeg(320, 240, 3));
  await writeFile(join(images, 'b.jpg'), await jpeg(200, 300, 4));
  await clip(clips, 'walk.mp4', 3, '160x120', 10);
});
afterAll(() => media.remove());

let alt: AltService | undefined;
let t: { home: string; dir: string; remove: () => Promise<void> } | undefined;
afterEach(async () => {
  await alt?.close();
  await t?.remove();
  alt = undefined;
  t = undefined;
});

async function setUp(variant: AltVariant) {
  const service = await startAltService(variant);
  const home = await cliHome();
  alt = service;
  t = home;
  const env = cliEnv(home.home, { LABELDESK_API_KEY: service.key });
  const label = async (dirs: string[], flags: string[] = []) => {
    const r = await runCli(
      ['label', ...dirs, '--service', service.url, '--yes', '--json', ...flags],
      env,
    );
    if (!r.stdout.trim()) throw new Error(`label exited ${r.code}: ${r.stderr}`);
    return { ...r, summary: lastJson<SummaryJson>(r.stdout) };
  };
  return { alt: service, home: home.home, env, label };
}

function openJobIds(home: string): string[] {
  try {
    const db = new Database(join(home, 'library.sqlite'), { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 2000');
      return (
        db
          .prepare("SELECT job_id FROM submissions WHERE job_id IS NOT NULL AND state = 'sending'")
          .all() as { job_id: string }[]
      ).map((r) => r.job_id);
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

/** Starts `label` on the clip with the service holding its job, and waits until the job id is stored. */
async function labelUntilJobStored(s: Awaited<ReturnType<typeof setUp>>) {
  s.alt.holdJobs = true;
  const run = startCli(['label', clips, '--service', s.alt.url, '--yes'], s.env);
  await until('the clip’s job to be stored', () => openJobIds(s.home).length > 0, 30_000);
  return run;
}

/** A clip's job left open by an interrupted run, then cancelled by `labeldesk jobs --cancel`. */
async function cancelHeldJob(s: Awaited<ReturnType<typeof setUp>>) {
  const run = await labelUntilJobStored(s);
  run.child.kill('SIGINT');
  expect((await run.exited).code).toBe(130);
  const cancel = await runCli(['jobs', '--cancel', '1', '--service', s.alt.url], s.env);
  expect(cancel.code, cancel.stderr).toBe(0);
  expect(cancel.stdout).toBe('Cancelled 1.\n');
  expect(s.alt.jobs.get('1')?.state).toBe('cancelled');
  expect(openJobIds(s.home)).toEqual([]);
}

describe('a paid answer is never lost', () => {
  it('keeps unreadable image and clip answers raw, counts them, and never sends them again', async () => {
    const s = await setUp('d');
    const first = await s.label([images, clips]);
    expect(first.summary.labelled).toBe(0);
    expect(first.summary.failed).toEqual([]);
    expect(first.summary.uncertain.map((u) => u.code)).toEqual([
      'answer_not_understood',
      'answer_not_understood',
      'answer_not_understood',
    ]);
    expect(first.summary.uncertain[0]!.message).toMatch(/^Answer not understood: /);
    // Two images and the clip's finished job: three paid answers, all kept.
    expect(rawAnswerCount(s.home)).toBe(3);
    expect(s.alt.paidCalls).toBe(3);
    expect(first.summary.framesSpent).toBe(s.alt.charged);
    expect(ledgerFrames(s.home)).toBe(s.alt.charged);

    const status = await runCli(['status', '--service', s.alt.url], s.env);
    expect(status.stdout).toContain('3 charged answer(s) kept but not understood');

    const again = await s.label([images, clips]);
    expect(again.summary.uncertain).toHaveLength(3);
    expect(again.summary.framesSpent).toBe(0);
    expect(s.alt.paidCalls).toBe(3);
    expect(rawAnswerCount(s.home)).toBe(3);
  }, 120_000);

  it('reads kept answers again, without sending anything, when the reading improves', async () => {
    const s = await setUp('c');
    // c's x,y is the box centre; read as a corner, its bbox and bboxPx disagree: kept raw.
    const first = await s.label([images]);
    expect(first.summary.uncertain.map((u) => u.code)).toEqual([
      'answer_not_understood',
      'answer_not_understood',
    ]);
    expect(first.summary.uncertain[0]!.message).toContain('is x,y the centre?');
    expect(rawAnswerCount(s.home)).toBe(2);
    const calls = s.alt.paidCalls;

    const fixed = await s.label([images], ['--box-origin', 'centre']);
    expect(fixed.stderr).toContain('Read 2 kept answer(s) the service had already charged.');
    expect(fixed.summary).toMatchObject({ labelled: 0, reused: 2, uncertain: [], framesSpent: 0 });
    expect(s.alt.paidCalls).toBe(calls);
    expect(rawAnswerCount(s.home)).toBe(0);
    expect(expectServedBoxesStored(s.home, s.alt)).toBe(4);
    expect(ledgerFrames(s.home)).toBe(s.alt.charged);
  }, 120_000);

  it('follows the job of a 202 with odd fields across a crash, and never uploads the clip twice', async () => {
    const s = await setUp('b');
    const run = await labelUntilJobStored(s);
    run.child.kill('SIGKILL');
    await run.exited;
    expect(openJobIds(s.home)).toEqual(['1']);
    s.alt.holdJobs = false;

    const next = await s.label([clips]);
    expect(next.summary, next.stderr).toMatchObject({ labelled: 1, failed: [], uncertain: [] });
    expect(s.alt.jobs.size).toBe(1);
    expect(s.alt.paidCalls).toBe(1);
    expect(expectServedBoxesStored(s.home, s.alt)).toBe(12);
    expect(ledgerFrames(s.home)).toBe(s.alt.charged);
  }, 120_000);

  it('cancels that job at the service', async () => {
    const s = await setUp('b');
    await cancelHeldJob(s);
  }, 120_000);
});

describe('a service with plain-text errors, an absolute pollUrl and a 204 on DELETE (issue 23 §2)', () => {
  it('follows its job and cancels it; its plain-text refusal is shown in its own words', async () => {
    const s = await setUp('e');
    await cancelHeldJob(s);

    const wrongKey = cliEnv(s.home, { LABELDESK_API_KEY: 'alt_e_key_999999999999' });
    const doctor = await runCli(['doctor', '--service', s.alt.url], wrongKey);
    expect(doctor.stdout).toMatch(/key: not understood: .*Missing or unknown token/);
  }, 120_000);
});
