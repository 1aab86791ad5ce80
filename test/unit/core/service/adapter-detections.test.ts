import { describe, expect, it } from 'vitest';
import {
  parseImageResult,
  parseJob,
  type AnswerContext,
} from '../../../../electron/core/service/service-adapter.js';
import { AnswerNotUnderstoodError } from '../../../../electron/core/service/service-errors.js';

/** A 200×100 analysed image with one box at (20,10) size 40×30 px. */
const W = 200;
const H = 100;
const px = { x: 20, y: 10, w: 40, h: 30 };
const norm = { x: px.x / W, y: px.y / H, w: px.w / W, h: px.h / H };
const image = { analysedWidth: W, analysedHeight: H };

const answer = (detections: unknown[], extra: object = { image }) => ({ detections, ...extra });
const read = (detections: unknown[], ctx: AnswerContext = {}, extra?: object) =>
  parseImageResult(answer(detections, extra), ctx);
const notesOf = (r: { understanding: { field: string; text: string }[] }) =>
  r.understanding.map((n) => `${n.field}: ${n.text}`);

const close = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => {
  for (const k of ['x', 'y', 'w', 'h'] as const) expect(a[k]).toBeCloseTo(b[k], 6);
};

describe('service adapter: box forms', () => {
  const forms: [string, unknown, unknown][] = [
    ['x,y,w,h', norm, px],
    [
      'x,y,width,height',
      { x: norm.x, y: norm.y, width: norm.w, height: norm.h },
      { x: px.x, y: px.y, width: px.w, height: px.h },
    ],
    [
      'left,top,width,height',
      { left: norm.x, top: norm.y, width: norm.w, height: norm.h },
      { left: px.x, top: px.y, width: px.w, height: px.h },
    ],
    [
      'xmin,ymin,xmax,ymax',
      { xmin: norm.x, ymin: norm.y, xmax: norm.x + norm.w, ymax: norm.y + norm.h },
      { xmin: 20, ymin: 10, xmax: 60, ymax: 40 },
    ],
    [
      'x1,y1,x2,y2',
      { x1: norm.x, y1: norm.y, x2: norm.x + norm.w, y2: norm.y + norm.h },
      { x1: 20, y1: 10, x2: 60, y2: 40 },
    ],
  ];
  it.each(forms)('reads {%s} boxes to the same corner + size', (name, bbox, bboxPx) => {
    const r = read([{ label: 'cat', score: 0.5, bbox, bboxPx }]);
    close(r.detections[0]!.bbox, norm);
    close(r.detections[0]!.bboxPx, px);
    if (name !== 'x,y,w,h') expect(notesOf(r).join('\n')).toContain(`understood as ${name}`);
    else expect(notesOf(r).filter((t) => t.startsWith('detections'))).toEqual([]);
  });

  it('decides a [x,y,w,h] array by agreement with an object form', () => {
    const r = read([{ label: 'cat', score: 0.5, bbox: norm, bboxPx: [20, 10, 40, 30] }]);
    close(r.detections[0]!.bboxPx, px);
    expect(notesOf(r)).toContain(
      'detections[].bboxPx: understood as [x,y,w,h] (x,y = top-left corner)',
    );
  });

  it('decides a [x1,y1,x2,y2] array by agreement with an object form', () => {
    const r = read([{ label: 'cat', score: 0.5, bbox: [0.1, 0.1, 0.3, 0.4], bboxPx: px }]);
    close(r.detections[0]!.bbox, norm);
    expect(notesOf(r)).toContain('detections[].bbox: understood as [x1,y1,x2,y2] (corners)');
  });

  it('decides two arrays when only one reading keeps every box inside the image', () => {
    // x1+x2 > 1: read as x,y,w,h this box would leave the image.
    const r = read([
      { label: 'a', score: 0.5, bbox: [0.6, 0.5, 0.9, 0.8], bboxPx: [120, 50, 180, 80] },
    ]);
    close(r.detections[0]!.bbox, { x: 0.6, y: 0.5, w: 0.3, h: 0.3 });
    close(r.detections[0]!.bboxPx, { x: 120, y: 50, w: 60, h: 30 });
  });

  it('keeps the answer raw when nothing decides between the two readings', () => {
    const body = answer([
      { label: 'a', score: 0.5, bbox: [0.1, 0.1, 0.2, 0.3], bboxPx: [20, 10, 40, 30] },
    ]);
    let err: unknown;
    try {
      parseImageResult(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AnswerNotUnderstoodError);
    const e = err as AnswerNotUnderstoodError;
    expect(e.code).toBe('answer_not_understood');
    expect(JSON.parse(e.raw)).toEqual(body);
    expect(e.problems[0]).toMatch(/^detections\[\]\.bbox\/bboxPx: nothing decides/);
  });

  it('keeps the answer raw when a box is missing or of an unknown form', () => {
    const err = (() => {
      try {
        read([
          { label: 'a', bbox: norm },
          { label: 'b', bbox: { cx: 1 }, bboxPx: px },
        ]);
      } catch (e) {
        return e as AnswerNotUnderstoodError;
      }
      throw new Error('expected a throw');
    })();
    expect(err.problems).toEqual([
      'detections[0].bboxPx: required (the interface names it)',
      'detections[1].bbox: not a box form LabelDesk knows (keys cx)',
    ]);
  });

  it('reads x,y as the centre when the service is set so', () => {
    const centre = { x: norm.x + norm.w / 2, y: norm.y + norm.h / 2, w: norm.w, h: norm.h };
    const centrePx = { x: 40, y: 25, w: 40, h: 30 };
    const r = read([{ label: 'a', score: 1, bbox: centre, bboxPx: centrePx }], {
      reading: { boxOrigin: 'centre' },
    });
    close(r.detections[0]!.bbox, norm);
    close(r.detections[0]!.bboxPx, px);
    expect(notesOf(r)).toContain('detections[].bbox: understood as x,y,w,h (x,y = centre)');
  });

  it('derives the analysed size from bbox against bboxPx when not published', () => {
    const r = read([{ label: 'a', score: 1, bbox: norm, bboxPx: px }], {}, {});
    expect(r.image).toMatchObject({ analysedWidth: W, analysedHeight: H });
    expect(notesOf(r)).toContain(
      'image.analysedWidth/Height: understood as 200×100 (bboxPx against bbox)',
    );
  });
});

describe('service adapter: classes, scores, credits', () => {
  const solution = { classes: ['person', 'car'], classIds: [3, 8] };
  it('reads class names under other keys and class indexes into the solution', () => {
    const r = read(
      [
        { class: 'dog', bbox: norm, bboxPx: px, confidence: 0.5 },
        { className: 'cat', bbox: norm, bboxPx: px, conf: 0.5 },
        { category: 'cow', bbox: norm, bboxPx: px, probability: 0.5 },
        { class_id: 8, bbox: norm, bboxPx: px, score: 0.5 },
        { classId: 99, bbox: norm, bboxPx: px, score: 0.5 },
      ],
      { solution },
    );
    expect(r.detections.map((d) => d.label)).toEqual(['dog', 'cat', 'cow', 'car', 'class 99']);
    expect(r.detections[3]!.classId).toBe(8);
    expect(notesOf(r)).toContain(
      "detections[].label: understood as a class index into the solution's classes",
    );
  });

  it('reads a class index as a position when classes are plain strings', () => {
    const r = read([{ classId: 1, bbox: norm, bboxPx: px, score: 1 }], {
      solution: { classes: ['person', 'car'] },
    });
    expect(r.detections[0]!.label).toBe('car');
  });

  it('reads scores on 0–100 as percent, and no score as none', () => {
    const r = read([
      { label: 'a', confidence: 91, bbox: norm, bboxPx: px },
      { label: 'b', confidence: 0.5, bbox: norm, bboxPx: px },
      { label: 'c', bbox: norm, bboxPx: px },
    ]);
    expect(r.detections.map((d) => d.score)).toEqual([0.91, 0.005, null]);
    expect(notesOf(r)).toContain('detections[].score: understood as a percentage (0–100)');
  });

  it('reads credits under other names, and none as null (spend from GET /key)', () => {
    const withCredits = read([], {}, { image, credits: { used: 4, left: 96, hour_remaining: 10 } });
    expect(withCredits.credits).toEqual({
      spent: 4,
      remaining: 96,
      hourRemaining: 10,
      reserved: null,
    });
    const none = read([], {}, { image });
    expect(none.credits).toBeNull();
    expect(notesOf(none)).toContain(
      'credits: not published by the service: using GET /key before and after the call for the spend',
    );
  });
});

describe('service adapter: clip frames', () => {
  const detection = { label: 'a', score: 1, bbox: norm, bboxPx: px };
  const job = (frames: unknown[], result: object = {}) =>
    parseJob(
      { status: 'done', result: { analysedWidth: W, analysedHeight: H, frames, ...result } },
      {
        clipDurationMs: 4000,
      },
    );

  it('reads frame/t in seconds, decided against the clip duration', () => {
    const r = job([
      { frame: 0, t: 0, detections: [detection] },
      { frame: 1, t: 0.5, detections: [] },
      { frame: 7, t: 3.5, detections: [detection, detection] },
    ]);
    expect(r.result!.frames.map((f) => [f.index, f.timeMs, f.detections.length])).toEqual([
      [0, 0, 1],
      [1, 500, 0],
      [7, 3500, 2],
    ]);
    expect(r.understanding.map((n) => n.text)).toContain(
      'understood as `t` in seconds (against the clip’s duration)',
    );
  });

  it('reads frameIndex/timestamp in milliseconds', () => {
    const r = job([
      { frameIndex: 0, timestamp: 0, detections: [] },
      { frameIndex: 1, timestamp: 2000, detections: [] },
    ]);
    expect(r.result!.frames.map((f) => f.timeMs)).toEqual([0, 2000]);
  });

  it('decides box arrays once for the whole clip', () => {
    const r = job([
      {
        index: 0,
        timeMs: 0,
        detections: [
          { label: 'a', score: 1, bbox: [0.1, 0.1, 0.3, 0.4], bboxPx: [20, 10, 60, 40] },
        ],
      },
      {
        index: 1,
        timeMs: 200,
        detections: [
          { label: 'a', score: 1, bbox: [0.6, 0.5, 0.9, 0.8], bboxPx: [120, 50, 180, 80] },
        ],
      },
    ]);
    close(r.result!.frames[0]!.detections[0]!.bbox, norm);
    close(r.result!.frames[1]!.detections[0]!.bboxPx, { x: 120, y: 50, w: 60, h: 30 });
  });
});

describe('service adapter: a clip result as a flat list of detections (issue 23 §2)', () => {
  const at = (frame: number, timestampMs: number) => ({
    frame,
    timestampMs,
    label: 'a',
    score: 0.9,
    bbox: norm,
    bboxPx: px,
  });
  const flat = (detections: unknown[]) =>
    parseJob(
      { status: 'done', result: { analysedWidth: W, analysedHeight: H, detections } },
      { clipDurationMs: 4000 },
    );

  it('groups the detections by their frame, in order, with the time in milliseconds', () => {
    const r = flat([at(2, 1000), at(0, 0), at(2, 1000), at(3, 1500)]);
    expect(r.result!.frames.map((f) => [f.index, f.timeMs, f.detections.length])).toEqual([
      [0, 0, 1],
      // Frame 1 had nothing: it is not listed, and put back empty between its neighbours.
      [1, 500, 0],
      [2, 1000, 2],
      [3, 1500, 1],
    ]);
    close(r.result!.frames[2]!.detections[1]!.bbox, norm);
    expect(notesOf(r)).toContain(
      'job.result.frames: understood as a flat list `detections` grouped by `frame` (frames without detections are not listed)',
    );
  });

  it('groups by time alone when no frame index is given; an item with neither is refused', () => {
    const timed = (t: number) => ({ Timestamp: t, label: 'a', bbox: norm, bboxPx: px });
    const r = flat([timed(500), timed(0), timed(500)]);
    expect(r.result!.frames.map((f) => [f.timeMs, f.detections.length])).toEqual([
      [0, 1],
      [500, 2],
    ]);
    expect(() => flat([timed(0), { label: 'a', bbox: norm, bboxPx: px }])).toThrow(
      AnswerNotUnderstoodError,
    );
  });
});

describe('service adapter: a wrong corner/centre setting', () => {
  it('keeps the answer raw when bbox (centre) and bboxPx (corners) disagree under the setting', () => {
    const centre = {
      x: norm.x + norm.w / 2,
      y: norm.y + norm.h / 2,
      width: norm.w,
      height: norm.h,
    };
    const corners = { x1: 20, y1: 10, x2: 60, y2: 40 };
    const body = [{ name: 'a', probability: 0.5, bbox: centre, bboxPx: corners }];
    let err: unknown;
    try {
      read(body);
    } catch (e) {
      err = e;
    }
    expect((err as AnswerNotUnderstoodError).problems[0]).toContain('is x,y the centre?');
    const r = read(body, { reading: { boxOrigin: 'centre' } });
    close(r.detections[0]!.bbox, norm);
  });
});

describe('service adapter: a box origin nobody confirmed (issue 23 §3)', () => {
  const unconfirmed = { reading: { boxOrigin: 'corner' as const, originConfirmed: false } };
  /** A box given with x,y as `origin` in both bbox (0–1) and bboxPx (of 200×100). */
  const box = (x: number, y: number, w: number, h: number) => ({
    label: 'a',
    score: 0.9,
    bbox: { x, y, w, h },
    bboxPx: { x: x * W, y: y * H, w: w * W, h: h * H },
  });
  const originNote = (r: { understanding: { field: string; kind: string; text: string }[] }) =>
    r.understanding.find((n) => n.field === 'box origin');

  it('nothing decides: read as corners, and said to be not confirmed', () => {
    const r = read([box(0.4, 0.4, 0.1, 0.2)], unconfirmed);
    close(r.detections[0]!.bbox, { x: 0.4, y: 0.4, w: 0.1, h: 0.2 });
    expect(originNote(r)).toMatchObject({ kind: 'not-published' });
    expect(originNote(r)!.text).toContain('x,y = the top-left corner — not confirmed');
    // Confirmed (a person, the catalog, the embedded service): read as set, nothing said.
    expect(originNote(read([box(0.4, 0.4, 0.1, 0.2)]))).toBeUndefined();
  });

  it('a reading that puts a box outside the picture is ruled out, and that is said', () => {
    // As a corner, x + w = 1.15 > 1: the centre it is.
    const r = read([box(0.85, 0.5, 0.3, 0.2), box(0.4, 0.4, 0.1, 0.2)], unconfirmed);
    close(r.detections[0]!.bbox, { x: 0.7, y: 0.4, w: 0.3, h: 0.2 });
    expect(originNote(r)!.text).toBe(
      'understood as x,y = the centre, decided by the boxes (with x,y as the top-left corner, a box would lie outside the picture)',
    );
  });

  it('across many answers of the service, where their boxes sit decides', () => {
    // Each image has two boxes whose centres sit around the middle: alone, nothing decides.
    const originEvidence = { boxes: 0, cornerX: 0, cornerY: 0, centreX: 0, centreY: 0 };
    const ctx = { reading: { ...unconfirmed.reading, originEvidence } };
    const answers = Array.from({ length: 16 }, (_, i) =>
      read(
        [box(0.35 + (i % 4) * 0.1, 0.4, 0.3, 0.3), box(0.6 - (i % 3) * 0.1, 0.5, 0.3, 0.3)],
        ctx,
      ),
    );
    expect(originNote(answers[0]!)).toMatchObject({ kind: 'not-published' });
    // From the 30th box on, read as corners every box would lean right and down: centres.
    const last = answers[15]!;
    expect(originNote(last)!.text).toContain('x,y = the centre, decided by the boxes');
    expect(originNote(last)!.text).toContain('(32 boxes of this service)');
    close(last.detections[0]!.bbox, { x: 0.5, y: 0.25, w: 0.3, h: 0.3 });
  });

  it('over many boxes, the reading whose boxes all lean one way is ruled out', () => {
    // Centres spread evenly over the middle: read as corners, every box leans right and down.
    const frames = Array.from({ length: 40 }, (_, i) => ({
      index: i,
      timeMs: i * 500,
      detections: [box(0.3 + (i % 5) * 0.1, 0.3 + (i % 4) * 0.133, 0.3, 0.3)],
    }));
    const r = parseJob(
      { status: 'done', result: { analysedWidth: W, analysedHeight: H, frames } },
      { ...unconfirmed, clipDurationMs: 20_000 },
    );
    close(r.result!.frames[0]!.detections[0]!.bbox, { x: 0.15, y: 0.15, w: 0.3, h: 0.3 });
    expect(originNote(r)!.text).toContain('x,y = the centre, decided by the boxes (with x,y as');
  });
});
