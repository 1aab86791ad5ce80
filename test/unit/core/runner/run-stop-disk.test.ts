/**
 * A clean stop (Ctrl-C) and a full disk through the runner: answers on their way are saved, not
 * left uncertain; a paid answer waits for space instead of failing; nothing is sent twice; and a
 * clip's frames are counted when the key pays them, so every run's summary equals the key's delta.
 */
import { describe, expect, it } from 'vitest';
import { DISK_RETRY_MS } from '../../../../electron/core/runner/disk-full.js';
import { planRun } from '../../../../electron/core/runner/plan-run.js';
import { runLabelling, type RunOptions } from '../../../../electron/core/runner/run-labelling.js';
import type { LibraryStore, MediaRecord } from '../../../../electron/core/store/store-types.js';
import { fakeService, testCatalog, type FakeService } from '../../../support/crash-fake-service.js';
import { runnerLibrary } from '../../../support/runner-library.js';

const catalog = testCatalog({ pollIntervalMs: { min: 100, max: 1_000 } });
const lib = runnerLibrary();
const images = (count: number) => lib.images(count);

const run = (
  service: FakeService,
  media: MediaRecord[],
  options: RunOptions = {},
  store: LibraryStore = lib.store,
) =>
  runLabelling(
    { store, service, catalog },
    planRun(lib.store, catalog, 'objects', media, { serviceUrl: service.baseUrl }),
    options,
  );

/** The store, whose transactions fail as on a full disk (SQLITE_FULL) while `full.on`. */
function fillable(store: LibraryStore) {
  const full = { on: false, refused: 0 };
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') return Reflect.get(target, prop, receiver) as unknown;
      return <T>(fn: () => T): T => {
        if (full.on) {
          full.refused++;
          throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        }
        return target.transaction(fn);
      };
    },
  });
  return { store: proxy, full };
}

const ledgerTotal = (service: FakeService) => lib.store.ledger.spentSince(service.baseUrl, 0);

describe('a clean stop', () => {
  it('awaits the answers on their way: none uncertain, the rest sent by the next run, each paid once', async () => {
    const service = fakeService({ remaining: 1_000 }, { latencyMs: 40 });
    const stop = new AbortController();
    const media = images(12);
    const first = await run(service, media, {
      concurrency: 4,
      stop: stop.signal,
      onItem: () => stop.abort(),
    });
    expect(first).toMatchObject({ interrupted: true, uncertain: [], failed: [], clipsOpen: 0 });
    expect(first.labelled).toBeGreaterThanOrEqual(1);
    expect(first.labelled + first.notSent).toBe(12);
    expect(lib.store.submissions.inStates(['sending', 'uncertain'])).toEqual([]);

    const second = await run(service, media);
    const keyDelta = 1_000 - service.key.remaining;
    console.log(
      `clean stop: first run ${first.labelled} labelled, ${first.framesSpent} frames; second ${second.labelled}, ${second.framesSpent}; key delta ${keyDelta}`,
    );
    expect(second).toMatchObject({ labelled: first.notSent, uncertain: [], interrupted: false });
    expect(service.calls.inferImage).toHaveLength(12);
    expect(keyDelta).toBe(12 * 4);
    expect(first.framesSpent + second.framesSpent).toBe(keyDelta);
    expect(ledgerTotal(service)).toBe(keyDelta);
  });
});

describe('a full disk', () => {
  it('paid answers wait for space and are saved once it returns: nothing failed, nothing sent twice', async () => {
    const { store, full } = fillable(lib.store);
    const service = fakeService(
      { remaining: 1_000 },
      {
        latencyMs: 10,
        image: (_file, call) => {
          if (call !== 1) return;
          // The disk fills up while the first answers are on their way, and is freed a moment later.
          full.on = true;
          setTimeout(() => (full.on = false), DISK_RETRY_MS / 2);
        },
      },
    );
    const states: boolean[] = [];
    const summary = await run(
      service,
      images(6),
      { concurrency: 2, onDisk: (s) => states.push(s.full) },
      store,
    );
    const keyDelta = 1_000 - service.key.remaining;
    console.log(
      `disk full then freed: ${full.refused} saves refused, labelled ${summary.labelled}, summary ${summary.framesSpent}, ledger ${ledgerTotal(service)}, key delta ${keyDelta}`,
    );
    expect(full.refused).toBeGreaterThan(0);
    expect(states).toEqual([true, false]);
    expect(summary).toMatchObject({ labelled: 6, failed: [], uncertain: [], diskFull: false });
    expect(service.calls.inferImage).toHaveLength(6);
    expect(keyDelta).toBe(24);
    expect(summary.framesSpent).toBe(keyDelta);
    expect(ledgerTotal(service)).toBe(keyDelta);
  });

  it('fills as the run records its own end: the run says so, with every answer saved', async () => {
    const { store, full } = fillable(lib.store);
    const service = fakeService({ remaining: 1_000 }, { latencyMs: 5 });
    const states: boolean[] = [];
    let saved = 0;
    const summary = await run(
      service,
      images(3),
      {
        concurrency: 1,
        onItem: () => (full.on = ++saved === 3),
        onDisk: (s) => states.push(s.full),
      },
      store,
    );
    full.on = false;
    expect(full.refused).toBeGreaterThan(0);
    expect(summary).toMatchObject({ labelled: 3, failed: [], uncertain: [], diskFull: true });
    expect(states).toEqual([true]);
  });

  it('aborted while the disk stays full: the paid files are uncertain (disk_full), never failed or re-sent', async () => {
    const { store, full } = fillable(lib.store);
    const abort = new AbortController();
    const service = fakeService(
      { remaining: 1_000 },
      {
        latencyMs: 10,
        image: (_file, call) => {
          if (call === 1) full.on = true;
        },
      },
    );
    const media = images(5);
    const summary = await run(
      service,
      media,
      { concurrency: 2, signal: abort.signal, onDisk: (s) => s.full && abort.abort() },
      store,
    );
    expect(summary.failed).toEqual([]);
    expect(summary.uncertain.map((u) => u.code)).toEqual(['disk_full', 'disk_full']);
    // The key paid for both answers: the summary says so even though they could not be kept.
    expect(summary.framesSpent).toBe(1_000 - service.key.remaining);
    expect(summary.framesSpent).toBe(8);
    const next = planRun(lib.store, catalog, 'objects', media);
    expect(next.uncertain.map((u) => u.code)).toEqual(['disk_full', 'disk_full']);
    expect(next.items).toHaveLength(3);
  });
});

describe('a clip interrupted and resumed', () => {
  it("each run's frames spent equal what the key lost (charged at the job's creation, refund at the end)", async () => {
    const clip = lib.clip();
    const stop = new AbortController();
    // 2 s at 5 fps, 2 frames each: the service holds 20 frames at the 202 and refunds the frames
    // it did not analyse (8 of 10 analysed: 4 back) when the job ends.
    const service: FakeService = fakeService(
      { remaining: 1_000 },
      {
        submit: () => {
          service.key.remaining -= 20;
          stop.abort();
          return { credits: { reserved: 20 } };
        },
        job: (_id, poll) => {
          if (poll < 2) return { status: 'running', progress: 0.5 };
          service.key.remaining += 4;
          return {
            status: 'succeeded',
            progress: 1,
            result: {
              analysedWidth: 64,
              analysedHeight: 48,
              frames: Array.from({ length: 8 }, (_, index) => ({
                index,
                timeMs: index * 200,
                detections: [],
              })),
            },
          };
        },
      },
    );
    const first = await run(service, [clip], { stop: stop.signal });
    const afterFirst = 1_000 - service.key.remaining;
    const second = await run(service, [clip]);
    const afterSecond = 1_000 - service.key.remaining;
    console.log(
      `clip interrupted then resumed: run 1 summary ${first.framesSpent} / key ${afterFirst}; run 2 summary ${second.framesSpent} / key ${afterSecond - afterFirst}; ledger ${ledgerTotal(service)}`,
    );
    expect(first).toMatchObject({ interrupted: true, clipsOpen: 1, framesSpent: 20 });
    expect(afterFirst).toBe(20);
    expect(second).toMatchObject({ labelled: 1, interrupted: false, framesSpent: -4 });
    expect(afterSecond).toBe(16);
    expect(service.calls.submitVideo).toHaveLength(1);
    expect(ledgerTotal(service)).toBe(afterSecond);
  });
});
