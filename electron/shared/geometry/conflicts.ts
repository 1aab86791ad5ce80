/**
 * Conflicts (issue 13 §4): model boxes of different classes on the same object — today the same
 * lemon is both "apple" and "orange". Two live model boxes of one frame with different labels
 * overlapping by IoU ≥ 0.7 conflict; boxes linked by conflicts form one conflict, shown as one.
 * Pure and shared: the review marks them, and the library's filter asks the same in SQL.
 */
import { iou, type NormBox } from './box-math.js';

export const CONFLICT_MIN_IOU = 0.7;

export interface ConflictBox {
  key: string;
  frameIndex: number;
  label: string;
  /** Null: a box with no score (a person's), ranked last. */
  score: number | null;
  bbox: NormBox;
  /** Only the model's own boxes conflict (a drawn box is a person's answer). */
  detectionId: number | null;
  deleted: boolean;
  review: 'pending' | 'accepted' | 'rejected';
}

/** Each conflict as its boxes' keys, best score first; conflicts in the order of their best box. */
export function findConflicts(boxes: readonly ConflictBox[]): string[][] {
  const live = boxes.filter((b) => b.detectionId !== null && !b.deleted && b.review !== 'rejected');
  const parent = live.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  // Pairs only within a frame: a clip has thousands of boxes over its frames.
  const byFrame = new Map<number, number[]>();
  live.forEach((b, i) => {
    const list = byFrame.get(b.frameIndex);
    if (list) list.push(i);
    else byFrame.set(b.frameIndex, [i]);
  });
  const linked = new Set<number>();
  for (const frame of byFrame.values()) {
    for (let x = 0; x < frame.length; x++) {
      const i = frame[x] as number;
      const a = live[i] as ConflictBox;
      for (let y = x + 1; y < frame.length; y++) {
        const j = frame[y] as number;
        const b = live[j] as ConflictBox;
        if (a.label === b.label || iou(a.bbox, b.bbox) < CONFLICT_MIN_IOU) continue;
        parent[root(j)] = root(i);
        linked.add(i).add(j);
      }
    }
  }
  const groups = new Map<number, ConflictBox[]>();
  for (const i of linked) {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(live[i] as ConflictBox);
    else groups.set(r, [live[i] as ConflictBox]);
  }
  return [...groups.values()]
    .map((g) => g.sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity)))
    .sort(
      (a, b) =>
        ((b[0] as ConflictBox).score ?? -Infinity) - ((a[0] as ConflictBox).score ?? -Infinity),
    )
    .map((g) => g.map((b) => b.key));
}
