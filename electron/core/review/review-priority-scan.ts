/**
 * Reads what review priority needs from the whole library in two streamed passes (the model's
 * boxes per result, then the files with their folder) and scores every labelled file. A content a
 * person has corrected is scored as it shows (relabelled, moved, drawn boxes; decisions), as the
 * corrected set rescores it after each edit. Only reads: it runs on the library view's connection
 * and thread; the scores are written by the store.
 */
import type { Db } from '../../node-lib/sqlite.js';
import type { ConflictBox } from '../../shared/geometry/conflicts.js';
import {
  medianCount,
  reviewPriority,
  withFolderMedian,
  type PriorityBox,
  type ReviewPriority,
} from './review-priority.js';
import { mergedContent } from './merged-content.js';
import { resultCorrections } from '../store/correction-rows.js';
import { medianGroup } from '../store/review-priority-types.js';

/** One file's score: [media id, expected corrections]. */
export type PriorityScore = [mediaId: number, score: number];

/**
 * Every labelled file's score, and the medians they were compared with: per folder and kind
 * (`medianGroup`), kept so that one edited file can be scored again alone.
 */
export interface PriorityScan {
  scores: PriorityScore[];
  medians: [group: string, median: number][];
}

type BoxRow = [
  id: number,
  resultId: number,
  frameIndex: number,
  label: string,
  score: number,
  x: number,
  y: number,
  w: number,
  h: number,
  review: ConflictBox['review'],
];

/** `detections.review` mirrors a person's decisions (mirror-writes.ts): rejected ones are out. */
const BOXES = `SELECT d.id, d.result_id, d.frame_index, d.label, d.score, d.x, d.y, d.w, d.h,
    d.review FROM results r JOIN detections d ON d.result_id = r.id
  WHERE r.solution = ? ORDER BY d.result_id, d.frame_index`;

/**
 * The results scored as they show (their boxes merged with corrections): those a person has
 * corrected with a file still to review. Any other is scored from the model's rows and their
 * mirrored review: a box accepted there was accepted by a rule (or, on a reviewed file whose
 * score orders nothing, by a person), and a box a person drew is not counted.
 */
const CORRECTED = `SELECT r.id, r.content_hash FROM results r
  WHERE r.solution = @solution
    AND EXISTS (${resultCorrections(' AND c.rule IS NULL')})
    AND EXISTS (SELECT 1 FROM media m WHERE m.content_hash = r.content_hash
      AND m.status = 'present' AND NOT EXISTS (SELECT 1 FROM reviewed_media v
        WHERE v.media_id = m.id AND v.solution = r.solution AND v.content_hash = m.content_hash))`;

const FILES = `SELECT m.id, m.folder_id, m.kind, r.id FROM media m
  JOIN results r ON r.content_hash = m.content_hash AND r.solution = ?
  WHERE m.status = 'present'`;

function scoreResults(
  db: Db,
  solution: string,
  thresholds: ReadonlyMap<string, number>,
): Map<number, ReviewPriority> {
  const byResult = new Map<number, ReviewPriority>();
  const ctx = { thresholds, folderMedian: 0 };
  const corrected = new Map(
    db.prepare<[{ solution: string }], [number, string]>(CORRECTED).raw().all({ solution }),
  );
  let current = -1;
  let boxes: PriorityBox[] = [];
  const flush = () => {
    if (current !== -1) byResult.set(current, reviewPriority(boxes, ctx));
    boxes = [];
  };
  for (const row of db.prepare(BOXES).raw().iterate(solution) as IterableIterator<BoxRow>) {
    const [id, resultId, frameIndex, label, score, x, y, w, h, review] = row;
    if (corrected.has(resultId)) continue;
    if (resultId !== current) {
      flush();
      current = resultId;
    }
    const bbox = { x, y, w, h };
    boxes.push({
      key: '',
      frameIndex,
      label,
      score,
      bbox,
      detectionId: id,
      deleted: false,
      review,
      rule: review === 'accepted' ? 'auto-accept' : null,
    });
  }
  flush();
  const merged = mergedContent(db);
  for (const [resultId, contentHash] of corrected) {
    byResult.set(resultId, reviewPriority(merged(resultId, contentHash, solution), ctx));
  }
  return byResult;
}

const NO_BOXES: ReviewPriority = {
  live: 0,
  nearThreshold: 0,
  conflicting: 0,
  missing: 0,
  score: 0,
};

/** Every labelled file's review priority, given each class's calibrated threshold. */
export function scanReviewPriority(
  db: Db,
  solution: string,
  thresholds: ReadonlyMap<string, number>,
): PriorityScan {
  const byResult = scoreResults(db, solution, thresholds);
  const files = db.prepare(FILES).raw().all(solution) as [number, number, string, number][];
  // The folder's median per kind: a clip's boxes over its frames are not an image's.
  const counts = new Map<string, number[]>();
  for (const [, folderId, kind, resultId] of files) {
    const group = medianGroup(folderId, kind);
    const live = byResult.get(resultId)?.live ?? 0;
    const list = counts.get(group);
    if (list) list.push(live);
    else counts.set(group, [live]);
  }
  const medians = new Map([...counts].map(([group, list]) => [group, medianCount(list)]));
  const scores = files.map(([mediaId, folderId, kind, resultId]): PriorityScore => {
    const p = byResult.get(resultId) ?? NO_BOXES;
    return [mediaId, withFolderMedian(p, medians.get(medianGroup(folderId, kind)) ?? 0).score];
  });
  return { scores, medians: [...medians] };
}
