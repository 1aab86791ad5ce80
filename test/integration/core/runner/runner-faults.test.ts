/**
 * Faults injected between the runner and a real embedded service (the fault proxy), one kind at
 * a time: what the run does, what the store records and what the service charged.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunnerRig } from '../../../support/crash-runner.js';
import { runnerTestMedia } from '../../../support/runner-test-media.js';
import { jpeg } from '../../../support/synth-media.js';

const IMAGE_COST = 4; // objects
const FRAME_COST = 2; // objects, per sampled frame

const { images, clips: oneClip, folder, startRig } = runnerTestMedia('labeldesk-runner-media-');

const imageUploads = (r: RunnerRig) =>
  r.proxy.requests.filter((q) => q.method === 'POST' && q.path === '/infer/image');

describe('runner faults: images', () => {
  it('429 with Retry-After: the run waits as told, then succeeds, charged once', async () => {
    const rig = await startRig();
    const dir = await images(3);
    rig.proxy.inject('POST', '/infer/image', {
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'too_many_requests', message: 'Slow down.' } },
    });
    const started = Date.now();
    const { summary } = await rig.label([dir]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(summary).toMatchObject({ labelled: 3, failed: [], uncertain: [], stoppedFor: null });
    expect(imageUploads(rig)).toHaveLength(4);
    expect(rig.proxy.forwarded('POST', '/infer/image')).toBe(3);
    expect(await rig.spent()).toBe(3 * IMAGE_COST);
    expect(rig.ledger()).toBe(3 * IMAGE_COST);
  });

  it('429 past the client retries: the runner requeues the file, pauses for Retry-After, sends it again', async () => {
    const rig = await startRig({ retry: { maxAttempts: 1 } });
    const dir = await images(2);
    rig.proxy.inject(
      'POST',
      '/infer/image',
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      2,
    );
    const started = Date.now();
    const { summary } = await rig.label([dir], { concurrency: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(summary).toMatchObject({ labelled: 2, failed: [], waitingForCredits: 0 });
    expect(await rig.spent()).toBe(2 * IMAGE_COST);
    // The first submission of the busy file was closed as requeued, then a new one finished.
    const requeued = rig.store.submissions
      .inStates(['cancelled'])
      .filter((s) => s.errorCode === 'requeued');
    expect(requeued.length).toBeGreaterThanOrEqual(1);
    expect(rig.store.submissions.inStates(['done'])).toHaveLength(2);
  });

  it('503: retried, labelled, charged once', async () => {
    const rig = await startRig();
    const dir = await images(2);
    rig.proxy.inject('POST', '/infer/image', { kind: 'status', status: 503 }, 2);
    const { summary } = await rig.label([dir], { concurrency: 1 });
    expect(summary).toMatchObject({ labelled: 2, failed: [], uncertain: [] });
    expect(rig.proxy.forwarded('POST', '/infer/image')).toBe(2);
    expect(await rig.spent()).toBe(2 * IMAGE_COST);
    expect(rig.ledger()).toBe(2 * IMAGE_COST);
  });

  it('a connection dropped after the upload: uncertain, reported, not resent; only retryUncertain resends it', async () => {
    const rig = await startRig();
    const dir = await images(3);
    rig.proxy.inject('POST', '/infer/image', { kind: 'drop-after-upload', forward: true });
    const first = await rig.label([dir], { concurrency: 1 });
    expect(first.summary.labelled).toBe(2);
    expect(first.summary.uncertain).toEqual([
      expect.objectContaining({ code: 'answer_lost', message: expect.stringMatching(/charged/) }),
    ]);
    const lost = first.summary.uncertain[0]!.media;
    expect(rig.store.submissions.latestFor(lost.contentHash!, 'objects')?.state).toBe('uncertain');
    // The service did the work and charged it; the ledger cannot know.
    expect(await rig.spent()).toBe(3 * IMAGE_COST);
    expect(rig.ledger()).toBe(2 * IMAGE_COST);
    // The budget counted the uncertain call as spent, so it never overshoots.
    expect(first.summary.framesSpent).toBe(2 * IMAGE_COST);

    const sent = imageUploads(rig).length;
    const again = await rig.label([dir]);
    expect(again.plan.items).toEqual([]);
    expect(again.plan.uncertain.map((u) => u.media.path)).toEqual([lost.path]);
    expect(again.summary.uncertain).toHaveLength(1);
    expect(imageUploads(rig)).toHaveLength(sent);

    const retried = await rig.label([dir], { retryUncertain: true });
    expect(retried.summary).toMatchObject({ labelled: 1, uncertain: [], failed: [] });
    expect(imageUploads(rig)).toHaveLength(sent + 1);
    expect(await rig.spent()).toBe(4 * IMAGE_COST); // the user asked for the second charge
    expect(rig.ledger()).toBe(3 * IMAGE_COST);
    expect(rig.store.results.find(lost.contentHash!, 'objects')).toBeDefined();
  });

  it('a connection dropped before the upload completed: resent, charged once', async () => {
    const rig = await startRig();
    const dir = await folder('big');
    // ~10 MB, far more than the socket buffers hold, so the drop comes mid-body.
    const base = await jpeg(320, 240, 7);
    const pad = Buffer.alloc(65_533 + 2);
    pad.writeUInt16BE(0xfffe, 0);
    pad.writeUInt16BE(65_533, 2);
    const big = Buffer.concat([
      base.subarray(0, 2),
      ...Array.from({ length: 160 }, () => pad.subarray(0, 65_533 + 2)),
      base.subarray(2),
    ]);
    await writeFile(join(dir, 'big.jpg'), big);
    rig.proxy.inject('POST', '/infer/image', { kind: 'drop-before-upload', afterBytes: 64 * 1024 });
    const { summary } = await rig.label([dir]);
    expect(summary).toMatchObject({ labelled: 1, uncertain: [], failed: [] });
    expect(imageUploads(rig)).toHaveLength(2);
    expect(imageUploads(rig)[0]).toMatchObject({ forwarded: false });
    expect(await rig.spent()).toBe(IMAGE_COST);
    expect(rig.ledger()).toBe(IMAGE_COST);
  });
});

describe('runner faults: clips', () => {
  const CLIP_FRAMES = 4 * 5; // 4 s sampled at 5 fps

  it('a 200 poll saying failed with its result beside the error: the paid result is kept, the error shown with it', async () => {
    // Issue 23: a result is paid for whatever the status word says; thrown away, the next run
    // uploaded the clip again and paid twice.
    const rig = await startRig({ service: { latencyMs: 20 } });
    const dir = await oneClip();
    rig.proxy.inject(
      'GET',
      /^\/jobs\//,
      {
        kind: 'rewrite',
        rewrite: (job: { status: string }) =>
          job.status === 'succeeded'
            ? {
                ...job,
                status: 'failed',
                error: { code: 'decoder_crashed', message: 'The decoder crashed at 00:03.' },
              }
            : job,
      },
      1000,
    );
    const { summary } = await rig.label([dir]);
    expect(summary.labelled).toBe(1);
    expect(summary.failed).toEqual([]);
    const sub = rig.store.submissions.inStates(['done'])[0];
    expect(sub).toMatchObject({
      errorCode: 'decoder_crashed',
      errorMessage: 'The decoder crashed at 00:03.',
      framesSpent: CLIP_FRAMES * FRAME_COST,
    });
    // The frames are charged once; the ledger says the same as the service; the boxes are kept.
    expect(summary.framesSpent).toBe(CLIP_FRAMES * FRAME_COST);
    expect(rig.ledger()).toBe(await rig.spent());
    expect(rig.store.results.find(sub!.contentHash, 'objects')).toBeDefined();
    // A second run sends nothing again.
    const again = await rig.label([dir]);
    expect(again.summary.framesSpent).toBe(0);
    expect(rig.ledger()).toBe(await rig.spent());
  });

  /** Times of the polls of a clip whose every answer gets `hint` as pollIntervalMs. */
  async function pollTimes(hint: (job: Record<string, unknown>) => void): Promise<number[]> {
    const rig = await startRig({
      service: { latencyMs: 250, limits: { pollIntervalMs: { min: 100, max: 600 } } },
    });
    const dir = await oneClip();
    const times: number[] = [];
    const rewrite = (job: Record<string, unknown>) => {
      hint(job);
      return job;
    };
    rig.proxy.inject('POST', '/infer/video', { kind: 'rewrite', rewrite });
    rig.proxy.inject(
      'GET',
      /^\/jobs\//,
      {
        kind: 'rewrite',
        rewrite: (job: Record<string, unknown>) => {
          times.push(Date.now());
          return rewrite(job);
        },
      },
      10_000,
    );
    const { summary } = await rig.label([dir]);
    expect(summary).toMatchObject({ labelled: 1, failed: [] });
    expect(times.length).toBeGreaterThanOrEqual(2);
    return times.slice(1).map((t, i) => t - times[i]!);
  }

  it.each([
    ['0', (job: Record<string, unknown>) => (job['pollIntervalMs'] = 0)],
    ['missing', (job: Record<string, unknown>) => delete job['pollIntervalMs']],
    ['negative', (job: Record<string, unknown>) => (job['pollIntervalMs'] = -5)],
  ])('pollIntervalMs %s: polls wait the catalog minimum, never spin', async (_name, hint) => {
    const gaps = await pollTimes(hint);
    // min 100 ms: at most ten polls a second (a little slack for timers).
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(90);
    expect(gaps.length).toBeGreaterThanOrEqual(5); // the job lasts ~1.5 s
  });

  it('pollIntervalMs huge: polls wait the catalog maximum, never stall', async () => {
    const gaps = await pollTimes((job) => (job['pollIntervalMs'] = 3_600_000));
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(580);
      // Far above the 600 ms maximum (a loaded machine), far below the hour asked for.
      expect(gap).toBeLessThan(5_000);
    }
  });

  it('503 on polls, more than the client retries itself: the poll goes on and the clip is labelled', async () => {
    const rig = await startRig({ service: { latencyMs: 100 }, retry: { maxAttempts: 2 } });
    const dir = await oneClip();
    rig.proxy.inject('GET', /^\/jobs\//, { kind: 'status', status: 503 }, 6);
    const { summary } = await rig.label([dir]);
    expect(summary).toMatchObject({ labelled: 1, failed: [], interrupted: false });
    expect(rig.proxy.requests.filter((r) => r.fault === 'status')).toHaveLength(6);
    expect(rig.proxy.forwarded('POST', '/infer/video')).toBe(1);
    expect(await rig.spent()).toBe(CLIP_FRAMES * FRAME_COST);
    expect(rig.ledger()).toBe(CLIP_FRAMES * FRAME_COST);
  });
});
