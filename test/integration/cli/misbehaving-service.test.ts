/**
 * Issue 23 §1: `label` against a service that misbehaves in exactly one way. Whatever it answers,
 * the run ends in bounded time with a summary, a call that may have been charged leaves its file
 * uncertain with the reason in plain words (never sent again without a person's Retry), no loop
 * calls the service more often than the 250 ms floor, and a paid clip result is kept.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startMisbehavingService,
  type Misbehaviour,
  type MisbehavingOptions,
  type MisbehavingService,
} from '../../support/misbehaving-service.js';
import { cliEnv, cliHome, lastJson, runCli, type SummaryJson } from '../../support/cli-run.js';
import { clip, jpeg } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';
import { CLIP_FRAMES } from '../../support/misbehaving-answers.js';

let media: { dir: string; remove: () => Promise<void> };
let image: string;
let clipDir: string;

beforeAll(async () => {
  media = await tempDir('misbehaving-');
  image = join(media.dir, 'images');
  clipDir = join(media.dir, 'clips');
  await mkdir(image);
  await mkdir(clipDir);
  await writeFile(join(image, 'a.jpg'), await jpeg(320, 240, 7));
  await clip(clipDir, 'walk.mp4', 3, '160x120', 10);
});
afterAll(() => media.remove());

let service: MisbehavingService | undefined;
let home: { home: string; remove: () => Promise<void> } | undefined;
afterEach(async () => {
  await service?.close();
  await home?.remove();
  service = undefined;
  home = undefined;
});

interface Summary extends SummaryJson {
  clipsOpen: number;
  serviceWait?: { reason: string; waitMs: number } | null;
}

async function setUp(misbehaviour: Misbehaviour, options: MisbehavingOptions = {}, extra = {}) {
  service = await startMisbehavingService(misbehaviour, options);
  home = await cliHome();
  const s = service;
  const env = cliEnv(home.home, { LABELDESK_API_KEY: s.key, ...extra });
  const label = async (dir: string, flags: string[] = [], timeoutMs = 60_000) => {
    const started = Date.now();
    const r = await runCli(['label', dir, '--service', s.url, '--yes', '--json', ...flags], env, {
      timeoutMs,
    });
    if (!r.stdout.trim()) throw new Error(`label exited ${r.code}: ${r.stderr}`);
    return { ...r, tookMs: Date.now() - started, summary: lastJson<Summary>(r.stdout) };
  };
  return { s, env, label };
}

/** Most calls of `method path` in any window of `windowMs` (the floor allows windowMs / 250 + 1). */
function busiestWindow(s: MisbehavingService, method: string, prefix: string, windowMs: number) {
  const at = s.calls
    .filter((c) => c.method === method && c.path.startsWith(prefix))
    .map((c) => c.at);
  let most = 0;
  for (let i = 0; i < at.length; i++) {
    let n = 0;
    for (let j = i; j < at.length && (at[j] as number) - (at[i] as number) < windowMs; j++) n++;
    most = Math.max(most, n);
  }
  return most;
}

const uploadedTwice = (s: MisbehavingService) =>
  [...s.uploads.values()].filter((n) => n > 1).length;

describe('label against a service that answers too much or too slowly', () => {
  it('abandons a 1 GiB answer at the size cap: the file is uncertain, with the reason', async () => {
    const { s, label } = await setUp('huge-answer');
    const r = await label(image);
    expect(r.summary.uncertain).toHaveLength(1);
    expect(r.summary.uncertain[0]?.code).toBe('answer_too_large');
    expect(r.summary.uncertain[0]?.message).toMatch(/the service's answer was larger than 8 MB/i);
    // The client stopped reading near the cap, far from the gigabyte.
    expect(s.answerBytes).toBeLessThan(64 * 1024 ** 2);
    expect(r.summary.framesSpent).toBe(s.charged);
    // Not sent again without a person's Retry.
    const again = await label(image);
    expect(again.summary.uncertain).toHaveLength(1);
    expect(uploadedTwice(s)).toBe(0);
  }, 120_000);

  it("sizes the image answer cap from the catalog's published detection limit", async () => {
    const { s, label } = await setUp('huge-answer', { maxDetections: 100 });
    const r = await label(image);
    expect(r.summary.uncertain[0]?.code).toBe('answer_too_large');
    expect(r.summary.uncertain[0]?.message).toMatch(/the service's answer was larger than 1 MB/i);
    expect(s.answerBytes).toBeLessThan(8 * 1024 ** 2);
  }, 120_000);

  it('abandons an answer that never ends at the size cap', async () => {
    const { s, label } = await setUp('endless-answer');
    const r = await label(image);
    expect(r.summary.uncertain[0]?.code).toBe('answer_too_large');
    expect(s.answerBytes).toBeLessThan(64 * 1024 ** 2);
  }, 120_000);

  it('abandons a trickling answer at its overall deadline (floor from LABELDESK_CALL_DEADLINE_S)', async () => {
    const { s, label } = await setUp(
      'trickle',
      { trickleMs: 500 },
      { LABELDESK_CALL_DEADLINE_S: '3' },
    );
    const r = await label(image);
    expect(r.summary.uncertain[0]?.code).toBe('answer_too_slow');
    expect(r.summary.uncertain[0]?.message).toMatch(
      /took longer than the call's deadline of 3(\.\d)? s/,
    );
    const held = s.calls.find((c) => c.path === '/infer/image')?.heldMs ?? Infinity;
    // The deadline is the floor plus the upload's allowance (a small photo: well under a second).
    expect(held).toBeLessThan(3000 + 1000 + 1000);
    expect(r.tookMs).toBeLessThan(30_000);
  }, 120_000);

  it('abandons a trickling answer at the deadline set with `labeldesk config call-deadline`', async () => {
    const { s, env, label } = await setUp('trickle', { trickleMs: 500 });
    const set = await runCli(['config', 'call-deadline', '3'], env);
    expect(set.stdout).toMatch(/Call deadline: 3 s: the least time/);
    const shown = await runCli(['config', 'call-deadline', '--json'], env);
    expect(JSON.parse(shown.stdout)).toEqual({ seconds: 3, source: 'setting' });
    const bad = await runCli(['config', 'call-deadline', '0'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/from 1 to 86400/);
    const r = await label(image);
    expect(r.summary.uncertain[0]?.code).toBe('answer_too_slow');
    expect(r.summary.uncertain[0]?.message).toMatch(/deadline of 3(\.\d)? s/);
    const held = s.calls.find((c) => c.path === '/infer/image')?.heldMs ?? Infinity;
    expect(held).toBeLessThan(3000 + 1000 + 1000);
  }, 120_000);

  it('refuses 10^6 detections for one image', async () => {
    const { s, label } = await setUp('million-detections');
    const r = await label(image);
    expect(r.summary.uncertain).toHaveLength(1);
    expect(r.summary.uncertain[0]?.message).toMatch(/larger than 8 MB|more than 10,000 detections/);
    expect(r.summary.framesSpent).toBe(s.charged);
  }, 120_000);

  it('refuses a small answer carrying more detections than an image may (kept raw, not re-sent)', async () => {
    const { s, label } = await setUp('implausible-detections');
    const r = await label(image);
    expect(r.summary.uncertain[0]?.code).toBe('answer_not_understood');
    expect(r.summary.uncertain[0]?.message).toMatch(/20,000 detections.*more than the 10,000/);
    const again = await label(image);
    expect(again.summary.labelled).toBe(0);
    expect(uploadedTwice(s)).toBe(0);
  }, 120_000);
});

describe('label against a catalog that never ends', () => {
  it('abandons it at 4 MB and says which call, before anything is sent', async () => {
    const { s, env } = await setUp('endless-catalog');
    const r = await runCli(['label', image, '--service', s.url, '--yes'], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /the service's answer was larger than 4 MB \(GET \/catalog\); the call was abandoned/,
    );
    expect(s.answerBytes).toBeLessThan(64 * 1024 ** 2);
    expect(s.count('POST', '/infer/')).toBe(0);
  }, 120_000);
});

describe('label against a service that asks for odd waits', () => {
  it('polls no faster than every 250 ms when pollIntervalMs is 0', async () => {
    const { s, label } = await setUp('poll-zero', { jobMs: 3000 });
    const r = await label(clipDir);
    expect(r.summary.labelled).toBe(1);
    expect(busiestWindow(s, 'GET', '/jobs/', 1000)).toBeLessThanOrEqual(5);
    expect(busiestWindow(s, 'GET', '/key', 1000)).toBeLessThanOrEqual(5);
    expect(r.summary.framesSpent).toBe(s.charged);
  }, 120_000);

  it('pauses instead of polling when pollIntervalMs is 10^12, and says what the service asked', async () => {
    const { s, label } = await setUp('poll-huge');
    const r = await label(clipDir);
    expect(r.stderr).not.toMatch(/TimeoutOverflowWarning/);
    expect(s.count('GET', '/jobs/')).toBeLessThanOrEqual(1);
    expect(r.summary.clipsOpen).toBe(1);
    expect(r.summary.serviceWait?.waitMs).toBe(1e12);
    expect(r.summary.serviceWait?.reason).toMatch(/poll/);
    expect(r.tookMs).toBeLessThan(30_000);
    // The open job is the clip's: it is never uploaded twice.
    await label(clipDir);
    expect(uploadedTwice(s)).toBe(0);
  }, 120_000);

  it('stops a one-shot run at once on Retry-After: 10^9, with the wait asked', async () => {
    const { s, label } = await setUp('retry-after-huge');
    const r = await label(image);
    expect(r.tookMs).toBeLessThan(30_000);
    expect(r.summary.serviceWait?.waitMs).toBe(1e12);
    expect(r.summary.waitingForCredits).toBe(1);
    expect(s.count('POST', '/infer/image')).toBeLessThanOrEqual(1);
    expect(busiestWindow(s, 'GET', '/key', 1000)).toBeLessThanOrEqual(5);
  }, 120_000);
});

describe('label against a Retry-After longer than a request is held', () => {
  it("pauses at once with the service's reason and the wait it asked (no shortened resends)", async () => {
    const { s, label } = await setUp('retry-after-long');
    const r = await label(image);
    expect(r.tookMs).toBeLessThan(30_000);
    expect(s.count('POST', '/infer/image')).toBe(1);
    expect(r.summary.serviceWait?.waitMs).toBe(600_000);
    expect(r.summary.serviceWait?.reason).toMatch(
      /asked to wait 10 min \(Retry-After\): "The detection engine is warming up\."/,
    );
    expect(r.summary.waitingForCredits).toBe(1);
    expect(r.summary.failed).toHaveLength(0);
  }, 120_000);
});

describe('doctor --spend against a pollIntervalMs of 10^12', () => {
  it('does not wait (nor poll in a loop): it says what the service asked and cancels the job', async () => {
    const { s, env } = await setUp('poll-huge');
    const started = Date.now();
    const r = await runCli(
      ['doctor', '--service', s.url, '--spend', join(clipDir, 'walk.mp4')],
      env,
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/asked to wait 31\.7 years before polling job 1/);
    expect(s.count('GET', '/jobs/')).toBe(0);
    expect(s.count('DELETE', '/jobs/')).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 120_000);
});

describe('label against a clip result that never ends', () => {
  it('leaves the paid clip uncertain at the size cap, counted, and never uploads it again', async () => {
    const { s, label } = await setUp('endless-result');
    const r = await label(clipDir);
    expect(r.summary.uncertain).toEqual([
      expect.objectContaining({
        code: 'answer_too_large',
        message: expect.stringMatching(/the service's answer was larger than 8 MB/i),
      }),
    ]);
    expect(r.summary.framesSpent).toBe(s.charged);
    expect(s.answerBytes).toBeLessThan(64 * 1024 ** 2);
    const again = await label(clipDir);
    expect(again.summary.uncertain).toHaveLength(1);
    expect(s.count('POST', '/infer/video')).toBe(1);
  }, 120_000);
});

describe('label against a poll carrying both result and error', () => {
  it('keeps the paid result (the error beside it) and never uploads the clip twice', async () => {
    const { s, label } = await setUp('result-and-error');
    const r = await label(clipDir);
    expect(r.summary.labelled).toBe(1);
    expect(r.stderr).toMatch(/Two frames could not be decoded/);
    expect(r.summary.framesSpent).toBe(CLIP_FRAMES);
    const again = await label(clipDir);
    expect(again.summary.labelled + again.summary.reused).toBe(1);
    expect(s.count('POST', '/infer/video')).toBe(1);
    expect(s.charged).toBe(CLIP_FRAMES);
  }, 120_000);
});
