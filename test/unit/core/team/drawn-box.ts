import type { CorrectionInput } from '../../../../electron/core/store/store-types.js';

/** A box a person drew on content `h1` (its left edge at `x`). */
export const drawn = (label: string, x = 0.1): CorrectionInput => ({
  contentHash: 'h1',
  solution: 'objects',
  frameIndex: 0,
  timeMs: null,
  anchor: null,
  label,
  bbox: { x, y: 0.1, w: 0.2, h: 0.2 },
  review: 'accepted',
  deleted: false,
});
