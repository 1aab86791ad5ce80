import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rereadRawAnswers } from '../../../../electron/core/runner/reread-raw-answers.js';
import { setReading } from '../../../../electron/core/runner/service-reading.js';
import { mediaRow, storeFixture, type StoreFixture } from '../store/store-fixture.js';

const URL = 'http://alt.invalid';
let fx: StoreFixture;
let submissionId: number;

/** One file whose paid answer was kept raw: its submission is uncertain, its charge booked. */
function keep(answer: 'imageResult' | 'videoSubmission' | 'job', body: unknown, kind = 'image') {
  const folder = fx.store.folders.add('/lib');
  const [mediaId] = fx.store.media.upsertMany([
    mediaRow(folder.id, `/lib/f.${kind === 'image' ? 'jpg' : 'mp4'}`, {
      kind: kind as 'image' | 'video',
      contentHash: 'h1',
      durationMs: kind === 'image' ? null : 3000,
    }),
  ]);
  const runId = fx.store.runs.create({
    serviceUrl: URL,
    solution: 'objects',
    estimateFrames: 2,
    budgetFrames: null,
    at: 1,
  });
  submissionId = fx.store.submissions.create({
    runId,
    mediaId: mediaId!,
    contentHash: 'h1',
    solution: 'objects',
    framesReserved: 2,
    state: 'sending',
  });
  fx.store.submissions.setState(submissionId, 'uncertain', {
    framesSpent: 1,
    errorCode: 'answer_not_understood',
  });
  fx.store.ledger.record({ serviceUrl: URL, submissionId, frames: 1, at: 1 });
  fx.store.rawAnswers.keep({
    submissionId,
    contentHash: 'h1',
    solution: 'objects',
    serviceUrl: URL,
    answer,
    httpStatus: answer === 'videoSubmission' ? 202 : 200,
    body: JSON.stringify(body),
    problems: ['x: y'],
    at: 1,
  });
}

const centreBox = {
  name: 'cat',
  probability: 0.5,
  bbox: { x: 0.2, y: 0.25, width: 0.2, height: 0.3 },
  bboxPx: { x1: 10, y1: 10, x2: 30, y2: 40 },
};

beforeEach(async () => {
  fx = await storeFixture();
});
afterEach(() => fx.done());

describe('rereadRawAnswers', () => {
  it('keeps an answer it still cannot read, and reads it once the setting fits', () => {
    keep('imageResult', { detections: [centreBox], credits: { spent: 2, balance: 8 } });
    expect(rereadRawAnswers(fx.store)).toEqual({ read: 0, kept: 1 });
    expect(fx.store.results.find('h1', 'objects')).toBeUndefined();

    setReading(fx.store, URL, { boxOrigin: 'centre' });
    expect(rereadRawAnswers(fx.store)).toEqual({ read: 1, kept: 0 });
    const result = fx.store.results.find('h1', 'objects');
    expect(result).toMatchObject({ analysedWidth: 100, analysedHeight: 100 });
    const [box] = fx.store.results.detections(result!.id);
    expect(box).toMatchObject({ label: 'cat', score: 0.5 });
    expect(box!.bbox.x).toBeCloseTo(0.1, 6);
    // Booked at the planned 1 frame; the answer says 2: the ledger now says what the key paid.
    expect(fx.store.ledger.spentSince(URL, 0)).toBe(2);
    expect(fx.store.submissions.byId(submissionId)).toMatchObject({
      state: 'done',
      framesSpent: 2,
      errorCode: null,
    });
    expect(fx.store.rawAnswers.countUnread()).toBe(0);
  });

  it("a 202 read at last gives its clip's job back to the next run, to poll, not to resend", () => {
    keep('videoSubmission', { id: 'j-9', status: 'queued' }, 'video');
    // A 202 with an id under `id` is read today: the job is known again at once.
    expect(rereadRawAnswers(fx.store)).toEqual({ read: 1, kept: 0 });
    expect(fx.store.submissions.byId(submissionId)).toMatchObject({
      state: 'sending',
      jobId: 'j-9',
    });
    expect(fx.store.submissions.openVideoJobs().map((s) => s.jobId)).toEqual(['j-9']);
  });

  it('a file a person had sent again meanwhile keeps its newer answer', () => {
    keep('imageResult', { detections: [] });
    fx.store.submissions.setState(submissionId, 'sending');
    fx.store.submissions.setState(submissionId, 'failed', { errorCode: 'x' });
    expect(rereadRawAnswers(fx.store)).toEqual({ read: 0, kept: 0 });
    expect(fx.store.results.find('h1', 'objects')).toBeUndefined();
  });
});
