/** What happened when: per class, the ranges it is present in, from tracks after corrections. */
import { describe, expect, it } from 'vitest';
import {
  clipEvents,
  clipSummary,
  countsOverTime,
  samplePeriodMs,
  type EventBox,
} from '../../../electron/shared/clips/clip-events.js';

/** A box on sample `frame` of a clip sampled every `period` ms. */
const at = (
  frame: number,
  label: string,
  trackId: number | null,
  score = 0.5,
  more: Partial<EventBox> = {},
  period = 500,
): EventBox => ({ frameIndex: frame, timeMs: frame * period, label, trackId, score, ...more });

/** A track of `label` seen on every sample from `from` to `to`. */
const track = (label: string, id: number, from: number, to: number, score = 0.5, period = 500) =>
  Array.from({ length: to - from + 1 }, (_, i) => at(from + i, label, id, score, {}, period));

describe('clip events', () => {
  it('gives per class its ranges with the tracks, boxes and mean score in each', () => {
    const boxes = [
      ...track('person', 1, 0, 10, 0.8),
      ...track('person', 2, 4, 20, 0.6),
      ...track('car', 3, 6, 8, 0.9),
    ];
    const events = clipEvents(boxes);
    expect(events.map((e) => [e.label, e.startMs, e.endMs, e.tracks.length, e.boxes])).toEqual([
      ['person', 0, 10_000, 2, 11 + 17],
      ['car', 3000, 4000, 1, 3],
    ]);
    const person = events[0];
    expect(person?.meanScore).toBeCloseTo((11 * 0.8 + 17 * 0.6) / 28, 10);
    expect(person?.tracks).toEqual([
      { trackId: 1, startMs: 0, endMs: 5000, boxes: 11, meanScore: expect.closeTo(0.8, 10) },
      { trackId: 2, startMs: 2000, endMs: 10_000, boxes: 17, meanScore: expect.closeTo(0.6, 10) },
    ]);
  });

  it('merges absences under one second and splits at one second or more', () => {
    // Sampled every 500 ms: one missed sample is 500 ms unseen, two missed are a whole second.
    const boxes = [at(0, 'dog', 1), at(1, 'dog', 1), at(3, 'dog', 1), at(6, 'dog', 2)];
    const events = clipEvents(boxes);
    expect(events.map((e) => [e.startMs, e.endMs, e.tracks.map((t) => t.trackId)])).toEqual([
      [0, 1500, [1]],
      [3000, 3000, [2]],
    ]);
  });

  it('keeps a clip sampled once a second in one range while the object stays', () => {
    const boxes = track('person', 1, 0, 40, 0.7, 1000);
    expect(samplePeriodMs(boxes)).toBe(1000);
    const events = clipEvents(boxes);
    expect(events.map((e) => [e.startMs, e.endMs, e.boxes])).toEqual([[0, 40_000, 41]]);
  });

  it('one track that leaves and comes back has one span in each range', () => {
    const boxes = [...track('person', 5, 0, 4), ...track('person', 5, 10, 12)];
    const events = clipEvents(boxes);
    expect(events.map((e) => e.tracks)).toEqual([
      [{ trackId: 5, startMs: 0, endMs: 2000, boxes: 5, meanScore: 0.5 }],
      [{ trackId: 5, startMs: 5000, endMs: 6000, boxes: 3, meanScore: 0.5 }],
    ]);
  });

  it('leaves out what a person rejected or deleted, and boxes in no track', () => {
    const boxes = [
      ...track('person', 1, 0, 4),
      ...track('person', 2, 0, 4).map((b) => ({ ...b, review: 'rejected' as const })),
      ...track('person', 3, 20, 24).map((b) => ({ ...b, deleted: true })),
      at(30, 'person', null),
      at(2, 'cat', 4, 0.9, { review: 'accepted' }),
    ];
    const events = clipEvents(boxes);
    expect(events.map((e) => [e.label, e.startMs, e.endMs, e.tracks.length])).toEqual([
      ['person', 0, 2000, 1],
      ['cat', 1000, 1000, 1],
    ]);
  });

  it('orders events by start, then by class', () => {
    const boxes = [at(4, 'bee', 1), at(4, 'ant', 2), at(1, 'zebra', 3), at(2, 'zebra', 3)];
    expect(clipEvents(boxes).map((e) => [e.label, e.startMs])).toEqual([
      ['zebra', 500],
      ['ant', 2000],
      ['bee', 2000],
    ]);
  });

  it("counts a person's keyframe between samples as a sighting, without it changing the period", () => {
    // Sampled every 500 ms; a keyframe drawn at 1.76 s (clip frame 44) bridges a 2 s absence.
    const keyframe: EventBox = {
      ...at(0, 'dog', 1),
      frameIndex: 44,
      keyframe: true,
      timeMs: 1760,
    };
    const boxes = [at(0, 'dog', 1), at(1, 'dog', 1), keyframe, at(6, 'dog', 1)];
    expect(samplePeriodMs(boxes)).toBe(500);
    expect(clipEvents(boxes).map((e) => [e.startMs, e.endMs, e.boxes])).toEqual([[0, 3000, 4]]);
    expect(clipEvents(boxes.filter((b) => b !== keyframe)).length).toBe(2);
  });

  it('has no events without boxes, and no period with a single frame', () => {
    expect(clipEvents([])).toEqual([]);
    expect(samplePeriodMs([at(3, 'a', 1), at(3, 'b', 2)])).toBe(0);
  });
});

describe('counts over time', () => {
  it('counts the tracks of each class on every frame, empty frames as 0', () => {
    const boxes = [
      ...track('person', 1, 1, 3),
      ...track('person', 2, 2, 3),
      at(3, 'car', 3),
      at(3, 'car', 4, 0.5, { review: 'rejected' }),
      at(2, 'car', null),
    ];
    const chart = countsOverTime(boxes, [0, 500, 1000, 1500, 2000]);
    expect(chart.timesMs).toEqual([0, 500, 1000, 1500, 2000]);
    expect(chart.series).toEqual([
      { label: 'car', counts: [0, 0, 0, 1, 0] },
      { label: 'person', counts: [0, 1, 2, 2, 0] },
    ]);
  });
});

describe('clip summary (events and counts from one pass)', () => {
  const boxes = [
    ...track('person', 2, 0, 6, 0.7),
    ...track('person', 1, 3, 9, 0.4),
    // A merge can leave a track with two boxes on one frame: it still counts once there.
    at(4, 'person', 1, 0.9),
    ...track('car', 5, 20, 24, 0.6),
    at(30, 'car', 6, 0.5, { review: 'rejected' }),
  ];
  const frames = Array.from({ length: 40 }, (_, i) => i * 500);

  it('says what clipEvents and countsOverTime say, in time order or not', () => {
    const shuffled = [...boxes].reverse();
    for (const input of [boxes, shuffled]) {
      const both = clipSummary(input, frames);
      expect(both.events).toEqual(clipEvents(boxes));
      expect(both.counts).toEqual(countsOverTime(boxes, frames));
    }
  });

  it('sorts boxes that come in time order until one does not, as it sorts any order', () => {
    const byTime = (order: 1 | -1) => (a: EventBox, b: EventBox) =>
      (a.timeMs ?? 0) - (b.timeMs ?? 0) || order * ((a.trackId ?? 0) - (b.trackId ?? 0));
    const sorted = [...boxes].sort(byTime(1));
    // Tracks reversed at each time (put back in place one by one), then a first box come last.
    const [first, ...rest] = [...boxes].sort(byTime(-1));
    const late = [...rest, first as EventBox];
    expect(clipSummary(late, frames)).toEqual(clipSummary(sorted, frames));
    expect(clipSummary(rest, frames)).toEqual(clipSummary(sorted.slice(1), frames));
  });

  it('counts each track once per time, and adds the times of boxes between the frames given', () => {
    const c = countsOverTime(
      [...boxes, at(9, 'car', 5, 0.5, { timeMs: 250, keyframe: true })],
      [0, 500, 1000, 1500, 2000],
    );
    expect(c.timesMs).toEqual([
      0, 250, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 10_000, 10_500, 11_000, 11_500,
      12_000,
    ]);
    const person = c.series.find((s) => s.label === 'person')?.counts;
    // 2000 ms (frame 4): tracks 2 and 1, track 1 with two boxes there.
    expect(person?.[c.timesMs.indexOf(2000)]).toBe(2);
    expect(c.series.find((s) => s.label === 'car')?.counts[1]).toBe(1);
  });
});
