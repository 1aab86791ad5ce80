/**
 * The hour budget and the hourly pause through the runner, on a simulated clock: a pause for a
 * busy service keeps what the hour has spent; only a new clock hour starts the hour budget afresh.
 */
import { describe, expect, it } from 'vitest';
import { planRun } from '../../../../electron/core/runner/plan-run.js';
import { runLabelling, type RunOptions } from '../../../../electron/core/runner/run-labelling.js';
import { ServiceError } from '../../../../electron/core/service/service-errors.js';
import { fakeService, testCatalog, type FakeService } from '../../../support/crash-fake-service.js';
import { runnerLibrary } from '../../../support/runner-library.js';

const HOUR = 3_600_000;
const catalog = testCatalog();
const lib = runnerLibrary();
const images = (count: number) => lib.images(count);

/** A clock whose sleeps pass at once; `t` starts `beforeHourEnd` ms before a clock hour ends. */
function simulatedClock(beforeHourEnd: number) {
  const clock = { t: 480_000 * HOUR - beforeHourEnd };
  return {
    clock,
    now: () => clock.t,
    sleep: (ms: number) => {
      clock.t += ms;
      return Promise.resolve();
    },
  };
}

async function run(
  service: FakeService,
  count: number,
  options: RunOptions,
  beforeHourEnd: number,
) {
  const time = simulatedClock(beforeHourEnd);
  const callHours: number[] = [];
  const at = time.now;
  const summary = await runLabelling(
    {
      store: lib.store,
      service: {
        ...service,
        inferImage: (input) => {
          callHours.push(Math.floor(at() / HOUR) - 479_998);
          return service.inferImage(input);
        },
      },
      catalog,
      now: time.now,
      sleep: time.sleep,
    },
    planRun(lib.store, catalog, 'objects', images(count)),
    options,
  );
  return { summary, callHours, ledger: lib.store.ledger.spentSince(service.baseUrl, 0) };
}

describe('the hour budget through the runner (simulated clock)', () => {
  it('a one-second busy pause does not refresh it: --hour-budget 8 spends 8, not 12', async () => {
    const service = fakeService(
      { remaining: 1_000 },
      {
        image: (_file, call) => {
          if (call === 2) throw new ServiceError(429, 'too_many_requests', 'busy', 1);
        },
      },
    );
    const { summary, ledger } = await run(
      service,
      5,
      { hourBudgetFrames: 8, concurrency: 1, maxPauseMs: 60_000 },
      30 * 60_000,
    );
    console.log(
      `hour budget 8, one busy answer: summary ${summary.framesSpent}, ledger ${ledger}, key ${1_000 - service.key.remaining}`,
    );
    expect(summary).toMatchObject({ framesSpent: 8, stoppedFor: 'hour-budget', labelled: 2 });
    expect(1_000 - service.key.remaining).toBe(8);
    expect(ledger).toBe(8);
  });

  it('waits for each new clock hour and spends the hour budget once per hour', async () => {
    const service = fakeService({ remaining: 1_000 });
    const { summary, callHours } = await run(
      service,
      5,
      { hourBudgetFrames: 8, concurrency: 1, maxPauseMs: Number.POSITIVE_INFINITY },
      10 * 60_000,
    );
    console.log(
      `hour budget 8 over 5 photos: calls in hours ${callHours.join(',')}, spent ${summary.framesSpent}`,
    );
    expect(callHours).toEqual([1, 1, 2, 2, 3]);
    expect(summary).toMatchObject({ labelled: 5, framesSpent: 20, stoppedFor: null });
  });

  it('frames spent earlier this hour (by another run) count; the last hour does not', async () => {
    const time = simulatedClock(20 * 60_000);
    lib.store.ledger.record({
      serviceUrl: 'http://fake.invalid',
      submissionId: null,
      frames: 4,
      at: time.now() - 1_000,
    });
    lib.store.ledger.record({
      serviceUrl: 'http://fake.invalid',
      submissionId: null,
      frames: 40,
      at: time.now() - HOUR,
    });
    const service = fakeService({ remaining: 1_000 });
    const { summary } = await run(service, 5, { hourBudgetFrames: 8, maxPauseMs: 0 }, 20 * 60_000);
    expect(summary).toMatchObject({ labelled: 1, framesSpent: 4, stoppedFor: 'hour-budget' });
  });

  it("the service's hourly limit (429 hourly_frames_exhausted) pauses to the next hour and goes on", async () => {
    const service = fakeService(
      { remaining: 1_000 },
      {
        image: (_file, call) => {
          if (call === 3) {
            throw new ServiceError(429, 'hourly_frames_exhausted', 'hour used up', 5 * 60);
          }
        },
      },
    );
    const { summary, callHours } = await run(
      service,
      4,
      { concurrency: 1, maxPauseMs: Number.POSITIVE_INFINITY },
      5 * 60_000,
    );
    expect(callHours).toEqual([1, 1, 1, 2, 2]);
    expect(summary).toMatchObject({ labelled: 4, framesSpent: 16, waitingForCredits: 0 });
  });
});
