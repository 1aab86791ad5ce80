/**
 * A run whose plan grows while it sends (`arrivals`): the first files go out before the source has
 * ended, every arrival is sent once, and credits hold exactly as for a plan made up front.
 */
import { describe, expect, it } from 'vitest';
import { RunPlanner } from '../../../../electron/core/runner/plan-run.js';
import { runLabelling } from '../../../../electron/core/runner/run-labelling.js';
import type { PlannedItem } from '../../../../electron/core/runner/task-types.js';
import type { MediaRecord } from '../../../../electron/core/store/store-types.js';
import { fakeService, testCatalog } from '../../../support/crash-fake-service.js';
import { runnerLibrary } from '../../../support/runner-library.js';
import { mediaRow } from '../store/store-fixture.js';

const lib = runnerLibrary();
const catalog = testCatalog({ pollIntervalMs: { min: 100, max: 1_000 } });
const images = (from: number, count: number, hash?: (i: number) => string) =>
  lib.images(count, { from, ...(hash ? { hash } : {}) });

/** Batches planned one after another; each waits until `gate` lets it go. */
async function* batches(
  planner: RunPlanner,
  parts: MediaRecord[][],
  gate: (index: number) => Promise<void>,
): AsyncGenerator<readonly PlannedItem[]> {
  for (const [index, part] of parts.entries()) {
    await gate(index);
    yield planner.add(part);
  }
}

describe('a run that takes arrivals', () => {
  it('sends the first files before the rest are planned, and every arrival once', async () => {
    const service = fakeService({ remaining: 1_000 }, { latencyMs: 5 });
    const planner = new RunPlanner(lib.store, catalog, 'objects');
    const parts = [images(0, 3), images(3, 5), images(8, 4)];
    const sentBefore: number[] = [];
    const summary = await runLabelling({ store: lib.store, service, catalog }, planner.plan, {
      arrivals: batches(planner, parts, async (index) => {
        // The source is slow: the next batch is read only after the run has sent something.
        if (index > 0) await until(() => service.calls.inferImage.length > 0);
        sentBefore.push(service.calls.inferImage.length);
      }),
    });
    expect(sentBefore[1]).toBeGreaterThan(0);
    expect(service.calls.inferImage).toHaveLength(12);
    expect(new Set(service.calls.inferImage).size).toBe(12);
    expect(summary).toMatchObject({ labelled: 12, framesSpent: 48, interrupted: false });
    expect(lib.store.ledger.spentSince(service.baseUrl, 0)).toBe(48);
  });

  it('never spends beyond the key: what the key cannot cover waits, arrivals included', async () => {
    const service = fakeService({ remaining: 20 }, { latencyMs: 2 });
    const planner = new RunPlanner(lib.store, catalog, 'objects');
    const parts = [images(0, 2), images(2, 6), images(8, 4)];
    const summary = await runLabelling({ store: lib.store, service, catalog }, planner.plan, {
      arrivals: batches(planner, parts, () => Promise.resolve()),
    });
    expect(service.calls.inferImage).toHaveLength(5);
    expect(service.key.remaining).toBe(0);
    // Every planned file is accounted for: sent, or recorded as waiting for credits.
    expect(summary).toMatchObject({ labelled: 5, framesSpent: 20, stoppedFor: 'key' });
    expect(summary.waitingForCredits).toBe(7);
  });

  it('refusals and duplicates found while planning reach the summary', async () => {
    const service = fakeService({ remaining: 1_000 });
    const planner = new RunPlanner(lib.store, catalog, 'objects');
    const [bad] = lib.store.media.upsertMany([
      { ...mediaRow(lib.folderId, '/lib/z.jpg'), status: 'error', errorCode: 'undecodable_media' },
    ]);
    const later = [...images(3, 2, () => 'same'), lib.store.media.byId(bad!)!];
    const summary = await runLabelling({ store: lib.store, service, catalog }, planner.plan, {
      arrivals: batches(planner, [images(0, 2), later], () => Promise.resolve()),
    });
    expect(service.calls.inferImage).toHaveLength(3);
    expect(summary.failed.map((f) => f.code)).toEqual(['undecodable_media']);
    expect(planner.plan.duplicates).toHaveLength(1);
    expect(summary.labelled).toBe(3);
  });

  it('a source that fails stops the run: nothing more is sent and the error is thrown', async () => {
    const service = fakeService({ remaining: 1_000 });
    const planner = new RunPlanner(lib.store, catalog, 'objects');
    async function* failing(): AsyncGenerator<readonly PlannedItem[]> {
      yield planner.add(images(0, 2));
      throw new Error('disk gone');
    }
    await expect(
      runLabelling({ store: lib.store, service, catalog }, planner.plan, { arrivals: failing() }),
    ).rejects.toThrow('disk gone');
    expect(service.calls.inferImage.length).toBeLessThanOrEqual(2);
  });
});

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((r) => setTimeout(r, 1));
}
