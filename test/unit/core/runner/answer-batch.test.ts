import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerBatch, type FinishedAnswer } from '../../../../electron/core/runner/answer-batch.js';
import { box, mediaRow, result, storeFixture, type StoreFixture } from '../store/store-fixture.js';

let fx: StoreFixture;
let runId: number;
let ids: number[];
beforeEach(async () => {
  fx = await storeFixture();
  const f = fx.store.folders.add('/lib');
  const media = fx.store.media.upsertMany(
    ['a', 'b', 'c'].map((n) => mediaRow(f.id, `/lib/${n}.jpg`, { contentHash: `h${n}` })),
  );
  runId = fx.store.runs.create({
    serviceUrl: 'http://svc',
    solution: 'objects',
    estimateFrames: 3,
    budgetFrames: null,
    at: fx.clock.t,
  });
  ids = media.map((mediaId, i) =>
    fx.store.submissions.create({
      runId,
      mediaId,
      contentHash: `h${'abc'[i]}`,
      solution: 'objects',
      framesReserved: 1,
      state: 'sending',
    }),
  );
});
afterEach(() => fx.done());

const answer = (submissionId: number, hash: string): FinishedAnswer => ({
  submissionId,
  framesSpent: 1,
  serviceUrl: 'http://svc',
  result: result(hash, [box('person', 0.9)]),
});

describe('AnswerBatch', () => {
  it('commits the answers of one event-loop turn in one transaction, and only then resolves', async () => {
    const { store } = fx;
    const transaction = vi.spyOn(store, 'transaction');
    const batch = new AnswerBatch(store, () => fx.clock.t);
    const done: number[] = [];
    const all = ids.map((id, i) =>
      batch.commit(answer(id, `h${'abc'[i]}`)).then(() => done.push(id)),
    );
    await Promise.resolve();
    // Nothing is stored or reported before the flush.
    expect(done).toEqual([]);
    expect(store.submissions.inStates(['sending']).map((s) => s.id)).toEqual(ids);
    expect(store.results.find('ha', 'objects')).toBeUndefined();
    await Promise.all(all);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(done).toEqual(ids);
    for (const id of ids) {
      expect(store.submissions.byId(id)).toMatchObject({ state: 'done', framesSpent: 1 });
    }
    expect(store.results.find('hc', 'objects')?.boxCount).toBe(1);
    expect(store.ledger.spentSince('http://svc', 0)).toBe(3);
  });

  it('keeps one bad answer from failing the others of its turn', async () => {
    const { store } = fx;
    const batch = new AnswerBatch(store, () => fx.clock.t);
    store.submissions.setState(ids[1] as number, 'cancelled');
    const outcomes = await Promise.allSettled(
      ids.map((id, i) => batch.commit(answer(id, `h${'abc'[i]}`))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toMatchObject({ reason: { code: 'illegal_transition' } });
    expect(store.submissions.byId(ids[0] as number)?.state).toBe('done');
    expect(store.submissions.byId(ids[2] as number)?.state).toBe('done');
    // The failed one kept neither its result nor its charge.
    expect(store.results.find('hb', 'objects')).toBeUndefined();
    expect(store.ledger.spentSince('http://svc', 0)).toBe(2);
  });
});
