/** Interpolated clip exports are streamed: made frame by frame, in a fixed order, never all at once. */
import { describe, expect, it } from 'vitest';
import { clipFrame, trackIdOf } from '../../../../electron/core/export/export-model.js';
import { interpolateItem } from '../../../../electron/core/review/interpolated-frames.js';
import type { DetectionRow, ExportItem } from '../../../../electron/core/store/store-types.js';
import { clipExportItem } from '../../../support/clip-export-item.js';

const FPS = 10;

/** A box of track `track` (none: -1) on clip frame `frame`; frame index as the store gives it. */
const box = (frame: number, track: number, label = 'cat', x = 0.1): DetectionRow =>
  Object.assign(
    {
      id: frame + 1,
      resultId: 1,
      frameIndex: frame % 2 === 0 ? frame / 2 : frame,
      timeMs: (frame * 1000) / FPS,
      label,
      classId: null,
      score: 0.5,
      bbox: { x, y: 0.2, w: 0.1, h: 0.1 },
      origin: 'model' as const,
      review: 'pending' as const,
    },
    track >= 0 ? { trackId: track } : {},
    frame % 2 === 0 ? {} : { keyframe: true as const },
  );

const clip = (detections: DetectionRow[]): ExportItem =>
  clipExportItem(
    { path: '/c.mp4', width: 100, height: 100, fps: FPS, durationMs: 1e12 },
    detections,
  );

const brief = (d: DetectionRow) => `${clipFrame(d, FPS)}:${trackIdOf(d)}:${d.label}:${d.id}`;

describe('interpolateItem', () => {
  it('orders each frame: the clip’s own boxes, then in-between boxes by track as first seen', () => {
    // A keyframe between samples comes first, as the store orders them (keyframes first).
    const rows = [box(3, 2, 'dog'), box(0, 5), box(1, 2, 'dog'), box(2, -1, 'bird')];
    rows.push(box(6, 5, 'cat', 0.4), box(0, 5, 'lynx'), box(6, 2, 'dog'));
    const out = [...interpolateItem(clip(rows)).detections].map(brief);
    expect(out).toEqual([
      '0:5:cat:1',
      '0:5:lynx:1',
      '1:2:dog:2',
      // Track 2 was seen first; track 5's in-between boxes take the label of its last box on 0.
      '1:5:lynx:0',
      '2:-1:bird:3',
      '2:2:dog:0',
      '2:5:lynx:0',
      '3:2:dog:4',
      '3:5:lynx:0',
      '4:2:dog:0',
      '4:5:lynx:0',
      '5:2:dog:0',
      '5:5:lynx:0',
      '6:5:cat:7',
      '6:2:dog:7',
    ]);
    // Linear between frame 0 (x 0.1) and 6 (x 0.4): half way on frame 3.
    const three = [...interpolateItem(clip(rows)).detections].find(
      (d) => clipFrame(d, FPS) === 3 && trackIdOf(d) === 5,
    );
    expect(three?.bbox.x).toBeCloseTo(0.25, 10);
    expect([three?.frameIndex, three?.keyframe]).toEqual([3, true]);
  });

  it('makes the boxes as they are read: a track across a billion frames starts at once', () => {
    const far = 1_000_000_000;
    const rows = [box(0, 1), box(far, 1, 'cat', 0.9), box(4, 2), box(far, 2)];
    const stream = interpolateItem(clip(rows)).detections;
    const first: string[] = [];
    for (const d of stream) {
      first.push(brief(d));
      if (first.length === 6) break;
    }
    expect(first).toEqual([
      '0:1:cat:1',
      '1:1:cat:0',
      '2:1:cat:0',
      '3:1:cat:0',
      '4:2:cat:5',
      '4:1:cat:0',
    ]);
    // Each pass makes them again, from the start.
    expect(brief(stream[Symbol.iterator]().next().value as DetectionRow)).toBe('0:1:cat:1');
  });

  it('gives a 2-hour clip’s million in-between boxes in frame order, each track on every frame', () => {
    const samples = 7200;
    const rows: DetectionRow[] = [];
    for (let s = 0; s < samples; s++) {
      for (let t = 1; t <= 7; t++) rows.push(box(s * 25, t, 'cat', (s % 100) / 200));
    }
    let count = 0;
    let last = 0;
    let ordered = true;
    for (const d of interpolateItem(clip(rows)).detections) {
      const f = clipFrame(d, FPS);
      ordered &&= f >= last;
      last = f;
      count++;
    }
    expect(ordered).toBe(true);
    expect(count).toBe(7 * ((samples - 1) * 25 + 1));
  });
});
