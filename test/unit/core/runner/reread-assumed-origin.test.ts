/**
 * Issue 23: answers read while a service's box origin was undecided are held as received and,
 * once a person confirms the origin, read again with it: the model boxes replaced through the
 * corrected set, a person's corrections kept (moved onto the boxes read again, never overwritten).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  boxOriginWatch,
  originUndecided,
} from '../../../../electron/application/box-origin-watch.js';
import { rereadDecidedAfterRun } from '../../../../electron/application/origin-decided-reread.js';
import { mergeCorrections } from '../../../../electron/core/review/merge-corrections.js';
import { AnswerBatch } from '../../../../electron/core/runner/answer-batch.js';
import { holdAssumed } from '../../../../electron/core/runner/hold-assumed.js';
import {
  rereadAssumedOrigins,
  rereadOrigins,
} from '../../../../electron/core/runner/reread-assumed-origin.js';
import { setReading } from '../../../../electron/core/runner/service-reading.js';
import { toDetectionInputs } from '../../../../electron/core/runner/to-detections.js';
import {
  readImageAnswer,
  readJobAnswer,
} from '../../../../electron/core/service/service-adapter.js';
import type {
  BoxXYWH,
  DetectionInput,
  ResultInput,
} from '../../../../electron/core/store/store-types.js';
import { correction, mediaRow, storeFixture, type StoreFixture } from '../store/store-fixture.js';

const URL = 'http://undecided.invalid';
const W = 400;
const H = 200;

/** What the service meant: x,y is each box's centre (it never says so). */
const SERVED = [
  { label: 'cat', score: 0.9, x: 0.3, y: 0.4, w: 0.2, h: 0.2 },
  { label: 'dog', score: 0.8, x: 0.6, y: 0.5, w: 0.1, h: 0.3 },
  { label: 'cat', score: 0.7, x: 0.5, y: 0.6, w: 0.2, h: 0.1 },
  { label: 'dog', score: 0.6, x: 0.4, y: 0.3, w: 0.1, h: 0.1 },
];
const body = JSON.stringify({
  detections: SERVED.map(({ label, score, x, y, w, h }) => ({
    label,
    score,
    bbox: { x, y, w, h },
    bboxPx: { x: x * W, y: y * H, w: w * W, h: h * H },
  })),
});
const asCentre = (b: BoxXYWH): BoxXYWH => ({ x: b.x - b.w / 2, y: b.y - b.h / 2, w: b.w, h: b.h });

let fx: StoreFixture;
let submissionId: number;

beforeEach(async () => {
  fx = await storeFixture();
  const folder = fx.store.folders.add('/lib');
  const [mediaId] = fx.store.media.upsertMany([
    mediaRow(folder.id, '/lib/a.jpg', { contentHash: 'h1', width: W, height: H }),
  ]);
  const runId = fx.store.runs.create({
    serviceUrl: URL,
    solution: 'objects',
    estimateFrames: 1,
    budgetFrames: null,
    at: 1,
  });
  submissionId = fx.store.submissions.create({
    runId,
    mediaId: mediaId!,
    contentHash: 'h1',
    solution: 'objects',
    framesReserved: 1,
    state: 'sending',
  });
});
afterEach(() => fx.done());

const resultOf = (detections: DetectionInput[]): ResultInput => ({
  contentHash: 'h1',
  solution: 'objects',
  serviceUrl: URL,
  analysedWidth: W,
  analysedHeight: H,
  model: null,
  detections,
});

/** The runner's read and commit of the answer while nobody has said where x,y is. */
async function labelWhileUndecided(): Promise<void> {
  const answer = readImageAnswer(200, body, {
    reading: { boxOrigin: 'corner', originConfirmed: false },
  });
  expect(answer.assumedOrigin).toEqual({ httpStatus: 200, body });
  await new AnswerBatch(fx.store, () => fx.clock.t).commit({
    submissionId,
    framesSpent: 1,
    serviceUrl: URL,
    result: resultOf(toDetectionInputs(answer.detections, 0, null)),
    ...(answer.assumedOrigin ? { assumedOrigin: answer.assumedOrigin } : {}),
  });
}

const model = () => {
  const r = fx.store.results.find('h1', 'objects');
  return fx.store.results.detections(r!.id);
};
const shown = () =>
  mergeCorrections(model(), fx.store.corrections.forContent('h1', 'objects'), {
    includeDeleted: true,
  });
const anchorOf = (i: number) => {
  const d = model()[i]!;
  return { label: d.label, score: d.score, bbox: d.bbox };
};

/** A later answer (another file): its box at the right edge rules out x,y as the corner. */
const deciding = () =>
  readImageAnswer(
    200,
    JSON.stringify({
      detections: [
        {
          label: 'cat',
          score: 0.9,
          bbox: [0.9, 0.5, 0.2, 0.2],
          bboxPx: { x: 0.9 * W, y: 0.5 * H, w: 0.2 * W, h: 0.2 * H },
        },
      ],
    }),
    { reading: { boxOrigin: 'corner', originConfirmed: false } },
  );

describe('answers read with the box origin assumed', () => {
  it('are held, and read again with the origin a person confirms, corrections kept', async () => {
    await labelWhileUndecided();
    // Read as corners: every box shifted by half its size from what the service meant.
    expect(model().map((d) => d.bbox.x)).toEqual(SERVED.map((s) => s.x));
    expect(fx.store.rawAnswers.countOriginPending()).toBe(1);
    expect(fx.store.rawAnswers.countUnread()).toBe(0);

    // A person's work on the shifted boxes: one moved, one accepted as shown, one relabelled,
    // one deleted; and a box they drew.
    const moved = { x: 0.21, y: 0.31, w: 0.2, h: 0.2 };
    const acceptedAt = anchorOf(1).bbox;
    fx.store.corrections.putMany([
      correction('h1', anchorOf(0), { bbox: moved, review: 'accepted' }),
      correction('h1', anchorOf(1), { review: 'accepted' }),
      correction('h1', anchorOf(2), { label: 'dog' }),
      correction('h1', anchorOf(3), { deleted: true }),
      correction('h1', null, { label: 'bird', bbox: { x: 0.05, y: 0.05, w: 0.1, h: 0.1 } }),
    ]);

    // Nobody confirmed yet: nothing is read again.
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });
    expect(fx.store.rawAnswers.countOriginPending()).toBe(1);

    setReading(fx.store, URL, { boxOrigin: 'centre' });
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 1, corrections: 4 });
    expect(fx.store.rawAnswers.countOriginPending()).toBe(0);

    // The model's boxes are now read with x,y as the centre.
    model().forEach((d, i) => {
      const want = asCentre(SERVED[i]!);
      expect(d.bbox.x).toBeCloseTo(want.x, 9);
      expect(d.bbox.y).toBeCloseTo(want.y, 9);
    });
    // One box per served box plus the drawn one (no duplicate beside a corrected box), and the
    // deleted one still deleted.
    const boxes = shown();
    expect(boxes).toHaveLength(5);
    const onModel = (i: number) => boxes.find((b) => b.detectionId === model()[i]!.id)!;
    expect(onModel(0)).toMatchObject({ bbox: moved, review: 'accepted', origin: 'edited' });
    expect(onModel(1)).toMatchObject({ bbox: acceptedAt, review: 'accepted' });
    expect(onModel(2)).toMatchObject({ label: 'dog', origin: 'edited' });
    expect(onModel(2).bbox.x).toBeCloseTo(asCentre(SERVED[2]!).x, 9);
    expect(onModel(3)).toMatchObject({ deleted: true });
    expect(boxes.find((b) => b.label === 'bird')).toMatchObject({ origin: 'added' });
    // Once only: a second pass changes nothing.
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });
  });

  it("a box an auto-accept rule accepted stays the rule's; a person's stays theirs", async () => {
    await labelWhileUndecided();
    // A person relabels box 1 (still pending) and accepts box 2 as shown; then a rule accepts
    // box 0 (no row yet) and box 1 (their pending row).
    const [relabelled] = fx.store.corrections.putMany([
      correction('h1', anchorOf(1), { label: 'cat' }),
      correction('h1', anchorOf(2), { review: 'accepted' }),
    ]);
    const seen = anchorOf(2).bbox;
    const rule = 'any ≥ 0.5 at 95 %';
    const batch = fx.store.ruleBatches.apply('objects', 0.95, 1, [
      {
        contentHash: 'h1',
        boxes: [
          { correctionId: null, frameIndex: 0, timeMs: null, model: anchorOf(0), rule },
          { correctionId: relabelled!.id, frameIndex: 0, timeMs: null, model: anchorOf(1), rule },
        ],
      },
    ]);

    setReading(fx.store, URL, { boxOrigin: 'centre' });
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 1, corrections: 3 });
    const onModel = (i: number) => shown().find((b) => b.detectionId === model()[i]!.id)!;
    // The rule's boxes follow their detections read again and stay the rule's.
    expect(onModel(0)).toMatchObject({ review: 'accepted', rule });
    expect(onModel(0).bbox.x).toBeCloseTo(asCentre(SERVED[0]!).x, 9);
    expect(onModel(1)).toMatchObject({ review: 'accepted', label: 'cat', rule });
    expect(onModel(1).bbox.x).toBeCloseTo(asCentre(SERVED[1]!).x, 9);
    // The person's accepted box stays theirs, where they saw it.
    expect(onModel(2)).toMatchObject({ review: 'accepted', bbox: seen });
    expect(onModel(2).rule ?? null).toBeNull();
    // The rule's undo still undoes exactly its two boxes: box 0 back to the model's, box 1 back
    // to the person's pending relabel.
    expect(fx.store.ruleBatches.undo(batch)).toBe(2);
    expect(onModel(0)).toMatchObject({ review: 'pending', origin: 'model' });
    expect(onModel(1)).toMatchObject({ review: 'pending', label: 'cat', origin: 'edited' });
    expect(onModel(2)).toMatchObject({ review: 'accepted' });
  });

  it('read again when a later answer of the service decides the origin, saying what decided', async () => {
    await labelWhileUndecided();
    // A later answer (another file) of the same service: its box at the right edge would lie
    // outside the picture with x,y as the corner, so its boxes decide the centre.
    const later = deciding();
    const lines: string[] = [];
    const watch = boxOriginWatch(fx.store, URL, (line) => lines.push(line));
    await watch(later.understanding);

    expect(fx.store.rawAnswers.countOriginPending()).toBe(0);
    model().forEach((d, i) => expect(d.bbox.x).toBeCloseTo(asCentre(SERVED[i]!).x, 9));
    expect(lines).toEqual([
      "Read the boxes of 1 file(s) again with the box origin their service's boxes decided: x,y = the centre, decided by the boxes (with x,y as the top-left corner, a box would lie outside the picture) (0 correction(s) kept on them).",
    ]);
    // Decided: not said to be undecided any more, and nothing is left to read again.
    expect(originUndecided(fx.store, URL)).toBe(false);
    expect(rereadAssumedOrigins(fx.store)).toMatchObject({ files: 0 });
  });

  it('held after the origin was decided in the same run: read again at the run’s end', async () => {
    const lines: string[] = [];
    // The decision comes first (nothing held yet), then an answer is held as undecided.
    await boxOriginWatch(fx.store, URL, (line) => lines.push(line))(deciding().understanding);
    await labelWhileUndecided();
    expect(fx.store.rawAnswers.countOriginPending()).toBe(1);
    expect(await rereadDecidedAfterRun(fx.store)).toMatch(
      /^Read the boxes of 1 file\(s\) again with the box origin their service's boxes decided: x,y = the centre/,
    );
    model().forEach((d, i) => expect(d.bbox.x).toBeCloseTo(asCentre(SERVED[i]!).x, 9));
    expect(lines).toEqual([]);
  });

  it("read by the boxes' evidence, then a person confirms the other origin: theirs wins", async () => {
    await labelWhileUndecided();
    const moved = { x: 0.21, y: 0.31, w: 0.2, h: 0.2 };
    fx.store.corrections.putMany([correction('h1', anchorOf(0), { bbox: moved })]);
    await boxOriginWatch(fx.store, URL, () => undefined)(deciding().understanding);
    // The boxes decided the centre: read again so, and left open to a person's word.
    model().forEach((d, i) => expect(d.bbox.x).toBeCloseTo(asCentre(SERVED[i]!).x, 9));
    expect(fx.store.rawAnswers.countOriginPending()).toBe(0);
    expect(fx.store.rawAnswers.countOriginDecided()).toBe(1);
    // Work done on the boxes as the evidence read them: a relabel, a box accepted as shown,
    // and an auto-accept rule's acceptance.
    const seen = anchorOf(3).bbox;
    fx.store.corrections.putMany([
      correction('h1', anchorOf(2), { label: 'dog' }),
      correction('h1', anchorOf(3), { review: 'accepted' }),
    ]);
    const rule = 'any ≥ 0.5 at 95 %';
    const batch = fx.store.ruleBatches.apply('objects', 0.95, 1, [
      {
        contentHash: 'h1',
        boxes: [{ correctionId: null, frameIndex: 0, timeMs: null, model: anchorOf(1), rule }],
      },
    ]);
    // Nobody has said yet: a run's start leaves it as the boxes decided.
    expect(rereadOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });

    setReading(fx.store, URL, { boxOrigin: 'corner' });
    expect(rereadOrigins(fx.store)).toEqual({ files: 1, corrections: 4 });
    expect(fx.store.rawAnswers.countOriginDecided()).toBe(0);
    // Read back with x,y as the corner, as the person said.
    expect(model().map((d) => d.bbox.x)).toEqual(SERVED.map((s) => s.x));
    const onModel = (i: number) => shown().find((b) => b.detectionId === model()[i]!.id)!;
    expect(shown()).toHaveLength(4);
    expect(onModel(0)).toMatchObject({ bbox: moved, origin: 'edited' });
    expect(onModel(1)).toMatchObject({ review: 'accepted', rule });
    expect(onModel(1).bbox.x).toBeCloseTo(SERVED[1]!.x, 9);
    expect(onModel(2)).toMatchObject({ label: 'dog', origin: 'edited' });
    expect(onModel(2).bbox.x).toBeCloseTo(SERVED[2]!.x, 9);
    expect(onModel(3)).toMatchObject({ review: 'accepted', bbox: seen });
    expect(onModel(3).rule ?? null).toBeNull();
    // The rule's undo still undoes exactly its box; a second pass changes nothing.
    expect(fx.store.ruleBatches.undo(batch)).toBe(1);
    expect(onModel(1)).toMatchObject({ review: 'pending', origin: 'model' });
    expect(rereadOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });
  });

  it("read by the boxes' evidence, then a person confirms the same origin: settled as it is", async () => {
    await labelWhileUndecided();
    await boxOriginWatch(fx.store, URL, () => undefined)(deciding().understanding);
    setReading(fx.store, URL, { boxOrigin: 'centre' });
    expect(rereadOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });
    expect(fx.store.rawAnswers.countOriginDecided()).toBe(0);
    model().forEach((d, i) => expect(d.bbox.x).toBeCloseTo(asCentre(SERVED[i]!).x, 9));
  });

  it('a later answer for the file stands: the held one is let go unread', async () => {
    await labelWhileUndecided();
    fx.store.results.save(
      resultOf([
        {
          frameIndex: 0,
          timeMs: null,
          label: 'cat',
          classId: null,
          score: 0.5,
          bbox: { x: 0.1, y: 0.1, w: 0.1, h: 0.1 },
        },
      ]),
    );
    setReading(fx.store, URL, { boxOrigin: 'centre' });
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });
    expect(model().map((d) => d.bbox.x)).toEqual([0.1]);
    expect(fx.store.rawAnswers.countOriginPending()).toBe(0);
  });

  it('confirmed as the corner, as read: nothing changes', async () => {
    await labelWhileUndecided();
    setReading(fx.store, URL, { boxOrigin: 'corner' });
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 0, corrections: 0 });
    expect(model().map((d) => d.bbox.x)).toEqual(SERVED.map((s) => s.x));
    expect(fx.store.rawAnswers.countOriginPending()).toBe(0);
  });

  it("a clip's result held the same way is read again frame by frame", () => {
    const frames = [0, 3].map((index) => ({
      index,
      timeMs: index * 200,
      detections: JSON.parse(body).detections as unknown[],
    }));
    const poll = JSON.stringify({
      status: 'succeeded',
      result: { analysedWidth: W, analysedHeight: H, frames },
    });
    const job = readJobAnswer(200, poll, {
      reading: { boxOrigin: 'corner', originConfirmed: false },
      clipDurationMs: 1000,
    });
    expect(job.assumedOrigin).toEqual({ httpStatus: 200, body: poll });
    // As the clip's task saves it: the result, then the answer held beside it.
    const result = fx.store.results.save(
      resultOf(
        job.result!.frames.flatMap((f) => toDetectionInputs(f.detections, f.index, f.timeMs)),
      ),
    );
    holdAssumed(fx.store, submissionId, 'job', result, job.assumedOrigin!, fx.clock.t);
    fx.store.corrections.put(
      correction('h1', anchorOf(5), { frameIndex: 3, timeMs: 600, review: 'accepted' }),
    );

    setReading(fx.store, URL, { boxOrigin: 'centre' });
    expect(rereadAssumedOrigins(fx.store)).toEqual({ files: 1, corrections: 1 });
    const boxes = model();
    expect(boxes.map((d) => d.frameIndex)).toEqual([0, 0, 0, 0, 3, 3, 3, 3]);
    boxes.forEach((d, i) => expect(d.bbox.x).toBeCloseTo(asCentre(SERVED[i % 4]!).x, 9));
    expect(shown()).toHaveLength(8);
    expect(shown().find((b) => b.detectionId === boxes[5]!.id)).toMatchObject({
      review: 'accepted',
      frameIndex: 3,
    });
  });
});
