/**
 * Which solutions hold boxes in a scope (the library, or some of its files), and enough about
 * them to say why an export's filters leave nothing: how many are accepted, the highest score,
 * the labels. Counted from the model's boxes not rejected (a person's drawn boxes and relabels
 * are merged only by the export itself): it explains, the export decides.
 */
import { openDatabase } from '../../node-lib/sqlite.js';

export interface HeldBoxes {
  solution: string;
  /** Present files with a result of this solution (with boxes or none). */
  files: number;
  boxes: number;
  /** Boxes accepted (by a person or a rule). */
  accepted: number;
  maxScore: number | null;
  /** Up to 12 of its labels, most frequent first. */
  labels: string[];
}

const SCOPE = `m.status = 'present'
  AND (@ids IS NULL OR m.id IN (SELECT value FROM json_each(@ids)))`;

const HELD_SQL = `
  SELECT r.solution AS solution, count(DISTINCT m.id) AS files, count(d.id) AS boxes,
    coalesce(sum(d.review = 'accepted'), 0) AS accepted, max(d.score) AS maxScore
  FROM media m JOIN results r ON r.content_hash = m.content_hash
  LEFT JOIN detections d ON d.result_id = r.id AND d.rejected = 0
  WHERE ${SCOPE}
  GROUP BY r.solution ORDER BY boxes DESC, r.solution`;

const LABELS_SQL = `
  SELECT d.label AS label FROM media m JOIN results r ON r.content_hash = m.content_hash
  JOIN detections d ON d.result_id = r.id AND d.rejected = 0
  WHERE ${SCOPE} AND r.solution = @solution
  GROUP BY d.label ORDER BY count(*) DESC, d.label LIMIT 12`;

/** The solutions labelled in the scope (`mediaIds`, or every present file), most boxes first. */
export function boxesHeld(file: string, mediaIds?: readonly number[]): HeldBoxes[] {
  const db = openDatabase(file);
  try {
    db.pragma('query_only = ON');
    const ids = mediaIds ? JSON.stringify(mediaIds) : null;
    const rows = db.prepare(HELD_SQL).all({ ids }) as Omit<HeldBoxes, 'labels'>[];
    const labels = db.prepare(LABELS_SQL).pluck();
    return rows.map((row) => ({
      ...row,
      labels: row.boxes > 0 ? (labels.all({ ids, solution: row.solution }) as string[]) : [],
    }));
  } finally {
    db.close();
  }
}
