import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../../electron/core/store/store-error.js';
import type { LibraryStore } from '../../../../electron/core/store/store-types.js';
import { mediaRow, storeFixture, type StoreFixture } from './store-fixture.js';

let fx: StoreFixture;
let runId: number;
let mediaId: number;
beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/clips');
  [mediaId] = fx.store.media.upsertMany([
    mediaRow(f.id, '/clips/a.mp4', { kind: 'video', contentHash: 'hv' }),
  ]) as [number];
  runId = fx.store.runs.create({
    serviceUrl: 'http://svc',
    solution: 'objects',
    estimateFrames: 80,
    budgetFrames: 100,
    at: fx.clock.t,
  });
});
afterEach(() => fx.done());

const submit = (store: LibraryStore) =>
  store.submissions.create({
    runId,
    mediaId,
    contentHash: 'hv',
    solution: 'objects',
    framesReserved: 80,
  });

describe('submissions', () => {
  it('walks queued → sending → done, recording attempts, frames spent and the time', () => {
    const { store } = fx;
    const id = submit(store);
    expect(store.submissions.byId(id)).toMatchObject({ state: 'queued', attempts: 0, jobId: null });
    fx.clock.t += 10;
    store.submissions.setState(id, 'sending', { attempts: 1 });
    store.submissions.setState(id, 'sending', { attempts: 2, errorCode: 'rate_limited' });
    fx.clock.t += 10;
    store.submissions.setState(id, 'done', { framesSpent: 78, errorCode: null });
    expect(store.submissions.byId(id)).toMatchObject({
      state: 'done',
      attempts: 2,
      framesSpent: 78,
      framesReserved: 80,
      errorCode: null,
      updatedAt: fx.clock.t,
    });
    store.runs.finish(runId, fx.clock.t, 'done');
  });

  it('refuses illegal moves with a clear error and leaves the submission as it was', () => {
    const { store } = fx;
    const id = submit(store);
    store.submissions.setState(id, 'sending');
    store.submissions.setState(id, 'done', { framesSpent: 80 });
    let caught: unknown;
    try {
      store.submissions.setState(id, 'sending', { attempts: 9 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect(caught).toMatchObject({
      code: 'illegal_transition',
      message: `submission ${id} cannot go from done to sending`,
    });
    expect(store.submissions.byId(id)).toMatchObject({ state: 'done', attempts: 0 });

    const other = submit(store);
    expect(() => store.submissions.setState(other, 'done')).toThrow(/from queued to done/);
    store.submissions.setState(other, 'cancelled');
    expect(() => store.submissions.setState(other, 'queued')).toThrow(/from cancelled to queued/);
    expect(() => store.submissions.setState(424242, 'sending')).toThrow(/does not exist/);
  });

  it('creates a submission as sending in one step, and never in any other state', () => {
    const { store } = fx;
    const id = store.submissions.create({
      runId,
      mediaId,
      contentHash: 'hv',
      solution: 'objects',
      framesReserved: 80,
      state: 'sending',
    });
    expect(store.submissions.byId(id)).toMatchObject({ state: 'sending', framesReserved: 80 });
    store.submissions.setState(id, 'done', { framesSpent: 80 });
    expect(store.submissions.byId(id)?.state).toBe('done');
    expect(() =>
      store.submissions.create({
        runId,
        mediaId,
        contentHash: 'hv',
        solution: 'objects',
        framesReserved: 80,
        state: 'done' as 'sending',
      }),
    ).toThrow(/cannot start as done/);
    expect(store.submissions.inStates(['done']).map((s) => s.id)).toEqual([id]);
  });

  it('keeps the video job id from the moment of the 202, and finds open jobs after a restart', () => {
    const id = submit(fx.store);
    const finished = submit(fx.store);
    fx.store.submissions.setState(id, 'sending');
    fx.store.submissions.setJob(id, 'job-123', 'queued');
    fx.store.submissions.setState(finished, 'sending');
    fx.store.submissions.setJob(finished, 'job-000', 'queued');
    fx.store.submissions.setJobProgress(finished, 'succeeded', 1);
    fx.store.submissions.setState(finished, 'done', { framesSpent: 80 });

    const store = fx.reopen();
    expect(store.submissions.openVideoJobs()).toMatchObject([
      { id, jobId: 'job-123', jobStatus: 'queued', jobProgress: 0, state: 'sending' },
    ]);
    store.submissions.setJobProgress(id, 'running', 0.4);
    expect(store.submissions.byId(id)).toMatchObject({ jobStatus: 'running', jobProgress: 0.4 });
    // The job finished while we were away but its result is not saved yet: still open.
    store.submissions.setJobProgress(id, 'succeeded', 1);
    expect(store.submissions.openVideoJobs().map((s) => s.id)).toEqual([id]);
    expect(() => store.submissions.setJob(999, 'job-x', 'queued')).toThrow(/does not exist/);
  });

  it('lists submissions by state and finds the latest for a content', () => {
    const { store } = fx;
    const a = submit(store);
    const b = submit(store);
    const c = submit(store);
    store.submissions.setState(a, 'sending');
    store.submissions.setState(a, 'uncertain', { errorCode: 'timeout', errorMessage: 'No answer' });
    store.submissions.setState(b, 'waiting-for-credits');
    expect(store.submissions.inStates(['uncertain', 'queued']).map((s) => s.id)).toEqual([a, c]);
    expect(store.submissions.byId(a)).toMatchObject({
      errorCode: 'timeout',
      errorMessage: 'No answer',
    });
    expect(store.submissions.latestFor('hv', 'objects')?.id).toBe(c);
    expect(store.submissions.latestFor('hv', 'faces')).toBeUndefined();
  });
});
