import { describe, expect, it, vi } from 'vitest';
import { planRun } from '../../../../electron/core/runner/plan-run.js';
import { runLabelling } from '../../../../electron/core/runner/run-labelling.js';
import type { JobAnswer } from '../../../../electron/core/runner/service-port.js';
import { jobPatienceMs, POLL_OUTAGE_MS } from '../../../../electron/core/runner/video-task.js';
import { summaryText } from '../../../../electron/cli/run-summary.js';
import { NetworkError, ServiceError } from '../../../../electron/core/service/service-errors.js';
import type { MediaRecord } from '../../../../electron/core/store/store-types.js';
import { fakeService, testCatalog, type FakeService } from '../../../support/crash-fake-service.js';
import { runnerLibrary } from '../../../support/runner-library.js';

const lib = runnerLibrary();
const catalog = testCatalog({ pollIntervalMs: { min: 100, max: 1_000 } });
const images = (count: number, prefix = 'p') => lib.images(count, { prefix });
const oneClip = () => lib.clip();

/** A clock that sleeps instantly, so long waits cost no test time. */
function virtualTime() {
  const clock = { t: 1_700_000_000_000 };
  return {
    now: () => clock.t,
    sleep: (ms: number) => {
      clock.t += ms;
      return Promise.resolve();
    },
    clock,
  };
}

const run = (service: FakeService, media: MediaRecord[], options = {}, time = virtualTime()) =>
  runLabelling(
    { store: lib.store, service, catalog, now: time.now, sleep: time.sleep },
    planRun(lib.store, catalog, 'objects', media),
    options,
  );

const succeeded = (frames: number): JobAnswer => ({
  status: 'succeeded',
  progress: 1,
  result: {
    analysedWidth: 64,
    analysedHeight: 48,
    frames: Array.from({ length: frames }, (_, index) => ({
      index,
      timeMs: index * 200,
      detections: [],
    })),
  },
});

describe('runLabelling with a fake service', () => {
  it('a key with exactly K frames at full concurrency: sends what K covers, never more', async () => {
    const service = fakeService({ remaining: 50 }, { latencyMs: 10 });
    const summary = await run(service, images(30));
    expect(service.calls.inferImage).toHaveLength(12);
    expect(service.peakInFlight).toBe(catalog.limits.maxConcurrentRequests);
    expect(summary).toMatchObject({
      labelled: 12,
      framesSpent: 48,
      failed: [],
      stoppedFor: 'key',
      waitingForCredits: 18,
    });
    expect(lib.store.submissions.inStates(['waiting-for-credits'])).toHaveLength(18);
    expect(lib.store.ledger.spentSince(service.baseUrl, 0)).toBe(48);
  });

  it('a run budget with concurrency 4: spends at most the budget', async () => {
    const service = fakeService({ remaining: 10_000 }, { latencyMs: 10 });
    const summary = await run(service, images(20), { budgetFrames: 18, concurrency: 4 });
    expect(service.calls.inferImage).toHaveLength(4);
    expect(summary).toMatchObject({
      framesSpent: 16,
      stoppedFor: 'run-budget',
      waitingForCredits: 16,
    });
  });

  it('the concurrency option is capped by the catalog', async () => {
    const service = fakeService({ remaining: 10_000 }, { latencyMs: 10 });
    await run(service, images(20), { concurrency: 64 });
    expect(service.peakInFlight).toBe(4);
    const one = fakeService({ remaining: 10_000 }, { latencyMs: 5 });
    const summary = await run(one, images(3, 'q'), { concurrency: 1 });
    expect(summary.labelled).toBe(3);
    expect(one.peakInFlight).toBe(1);
  });

  it('one commit per image: an answer lands with the row of the next file its slot frees', async () => {
    const service = fakeService({ remaining: 10_000 }, { latencyMs: 2 });
    const transaction = vi.spyOn(lib.store, 'transaction');
    const summary = await run(service, images(10), { concurrency: 1 });
    expect(summary).toMatchObject({ labelled: 10, framesSpent: 40, failed: [] });
    expect(service.peakInFlight).toBe(1);
    // The first file's row alone, nine answers each with the next file's row, the last answer,
    // and the run's end (21 before: a commit for each answer and one for each row).
    expect(transaction).toHaveBeenCalledTimes(12);
    expect(lib.store.submissions.inStates(['done'])).toHaveLength(10);
    expect(lib.store.ledger.spentSince(service.baseUrl, 0)).toBe(40);
  });

  it('a key read just before is not read again at the start (one request less before sending)', async () => {
    const service = fakeService({ remaining: 10_000 }, { latencyMs: 1 });
    const key = await service.keyStatus();
    const time = virtualTime();
    const summary = await runLabelling(
      { store: lib.store, service, catalog, now: time.now, sleep: time.sleep, key },
      planRun(lib.store, catalog, 'objects', images(3)),
    );
    expect(summary).toMatchObject({ labelled: 3, framesSpent: 12 });
    expect(service.calls.keyStatus).toBe(1);
  });

  it('a clip: polls until the job succeeds, stores the boxes and the charge', async () => {
    const service = fakeService(
      { remaining: 1_000 },
      {
        job: (_id, poll) => (poll < 3 ? { status: 'running', progress: poll / 3 } : succeeded(10)),
      },
    );
    const summary = await run(service, [oneClip()]);
    expect(summary).toMatchObject({ labelled: 1, framesSpent: 20 });
    expect(service.calls.submitVideo).toHaveLength(1);
    expect(service.calls.job).toHaveLength(3);
    expect(lib.store.ledger.spentSince(service.baseUrl, 0)).toBe(20);
  });

  it('polls that fail for a while (a restart, 503s) are waited out: the clip is labelled', async () => {
    const service = fakeService(
      { remaining: 1_000 },
      {
        job: (_id, poll) => {
          if (poll <= 3) throw new NetworkError('network', 'connect ECONNREFUSED');
          if (poll <= 5) throw new ServiceError(503, 'unavailable', 'restarting');
          return succeeded(10);
        },
      },
    );
    const summary = await run(service, [oneClip()]);
    expect(summary).toMatchObject({ labelled: 1, failed: [], interrupted: false });
    expect(service.calls.submitVideo).toHaveLength(1);
  });

  it('polls failing for good: the run ends interrupted and leaves the job open for the next run', async () => {
    const service = fakeService(
      { remaining: 1_000 },
      {
        job: () => {
          throw new NetworkError('network', 'connect ECONNREFUSED');
        },
      },
    );
    const time = virtualTime();
    const started = time.now();
    const clip = oneClip();
    const summary = await run(service, [clip], {}, time);
    expect(time.now() - started).toBeGreaterThan(POLL_OUTAGE_MS);
    // The job was paid for when it was created: this run's frames are the key's.
    expect(summary).toMatchObject({ labelled: 0, failed: [], interrupted: true, framesSpent: 20 });
    expect(summary.clipsOpen).toBe(1);
    const open = lib.store.submissions.openVideoJobs();
    expect(open).toEqual([expect.objectContaining({ jobId: 'job-1', state: 'sending' })]);
    // The next run polls the same job again and does not upload the clip a second time.
    const back = fakeService({ remaining: 1_000 }, { job: () => succeeded(10) });
    const next = planRun(lib.store, catalog, 'objects', [clip]);
    expect(next.items).toEqual([expect.objectContaining({ resumeSubmissionId: open[0]!.id })]);
    const done = await runLabelling(
      { store: lib.store, service: back, catalog, now: time.now, sleep: time.sleep },
      next,
    );
    // Collecting the result costs nothing more: the ledger holds the clip's frames once.
    expect(done).toMatchObject({ labelled: 1, framesSpent: 0 });
    expect(lib.store.ledger.spentSince(service.baseUrl, 0)).toBe(20);
    expect(back.calls.submitVideo).toEqual([]);
    expect(back.calls.job).toEqual(['job-1']);
  });

  it('a job that never finishes: after a generous wait the run leaves it open and resumable', async () => {
    const service = fakeService(
      { remaining: 1_000 },
      { job: () => ({ status: 'running', progress: 0.5 }) },
    );
    const time = virtualTime();
    const started = time.now();
    const summary = await run(service, [oneClip()], {}, time);
    // 15 minutes at least, whatever the clip's length; not a moment earlier.
    expect(time.now() - started).toBeGreaterThan(jobPatienceMs(2_000));
    expect(jobPatienceMs(2_000)).toBe(15 * 60_000);
    expect(jobPatienceMs(3_600_000)).toBe(30 * 3_600_000);
    expect(summary).toMatchObject({ labelled: 0, failed: [], uncertain: [], clipsOpen: 1 });
    expect(summaryText(summary)).toContain(
      'Interrupted: 1 clip still being analysed; the next run picks it up.',
    );
    expect(lib.store.submissions.openVideoJobs()).toEqual([
      expect.objectContaining({ jobId: 'job-1', state: 'sending' }),
    ]);
  });

  it('a poll the service refuses for good (404) fails the clip at once', async () => {
    const service = fakeService(
      { remaining: 1_000 },
      {
        job: () => {
          throw new ServiceError(404, 'job_not_found', 'There is no job job-1 for this token.');
        },
      },
    );
    const summary = await run(service, [oneClip()]);
    expect(summary.failed).toEqual([expect.objectContaining({ code: 'job_not_found' })]);
    expect(service.calls.job).toHaveLength(1);
  });
});
