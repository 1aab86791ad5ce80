import { describe, expect, it } from 'vitest';
import { assignTracks } from '../../../../electron/core/review/track-boxes.js';

const at = (frameIndex: number, label: string, x: number) => ({
  frameIndex,
  label,
  bbox: { x, y: 0.2, w: 0.2, h: 0.2 },
});

describe('assignTracks', () => {
  it('links boxes of one label that overlap across frames, and keeps two walkers apart', () => {
    const boxes = [
      at(0, 'person', 0.1),
      at(0, 'person', 0.6),
      at(1, 'person', 0.62),
      at(1, 'person', 0.13),
      at(2, 'person', 0.16),
      at(2, 'person', 0.64),
    ];
    expect(assignTracks(boxes)).toEqual([1, 2, 2, 1, 1, 2]);
  });

  it('never links different labels, nor boxes that barely overlap', () => {
    expect(assignTracks([at(0, 'cat', 0.1), at(1, 'dog', 0.1)])).toEqual([1, 2]);
    expect(assignTracks([at(0, 'cat', 0.1), at(1, 'cat', 0.25)])).toEqual([1, 2]);
  });

  it('tolerates a gap of two sampled frames, not three', () => {
    expect(assignTracks([at(0, 'cat', 0.1), at(3, 'cat', 0.1)])).toEqual([1, 1]);
    expect(assignTracks([at(0, 'cat', 0.1), at(4, 'cat', 0.1)])).toEqual([1, 2]);
  });

  it('gives the same ids whatever the input order', () => {
    const boxes = [at(0, 'cat', 0.1), at(1, 'cat', 0.12), at(1, 'cat', 0.6)];
    expect(assignTracks([...boxes].reverse())).toEqual([2, 1, 1]);
  });
});
