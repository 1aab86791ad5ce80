/**
 * The import bench's floor: only the rows an import of the bench's labels must write, as bare SQL
 * on the same library (a copy), with nothing read, parsed or planned: ten corrections per
 * analysed content (the columns and a kept-COCO text of the size the import writes, in the
 * importer's statements of one content's rows), the library view's mirror of every model box,
 * and the reviewed marks; in the library's order (as the import writes), in transactions of a
 * thousand contents. What no import of these
 * labels can go below with this schema, whatever its code.
 */
import { openDatabase } from '../electron/node-lib/sqlite.js';

const COLUMNS = `content_hash, solution, frame_index, time_ms, anchor_label, anchor_score,
  anchor_x, anchor_y, anchor_w, anchor_h, label, x, y, w, h, review, deleted, track, updated_at,
  crowd, coco, person_made, keyframe, content_id`;
const BOXES = 10;
const CONTENTS_PER_TRANSACTION = 1000;

export function writeFloor(file: string): { rows: number } {
  const db = openDatabase(file);
  try {
    db.pragma('cache_size = -32768');
    db.pragma('wal_autocheckpoint = 10000');
    const row = `(${Array(24).fill('?').join(', ')})`;
    const insert = db.prepare<unknown[]>(
      `INSERT INTO corrections (${COLUMNS}) VALUES ${Array(BOXES).fill(row).join(', ')}`,
    );
    const mirror = db.prepare<[string]>(
      `UPDATE detections SET review = 'accepted', origin = 'edited'
       WHERE result_id IN (SELECT value FROM json_each(?))`,
    );
    const marks = db.prepare<[number, string]>(
      `INSERT INTO reviewed_media (media_id, solution, content_hash, reviewed_at, reviewed_by)
       SELECT id, 'objects', content_hash, ?, 'import' FROM media
       WHERE id IN (SELECT value FROM json_each(?)) AND content_hash IS NOT NULL
       ON CONFLICT (media_id, solution) DO NOTHING`,
    );
    const contents = db
      .prepare<[], { id: number; hash: string; media: number; number: number }>(
        `SELECT r.id, r.content_hash AS hash, m.id AS media, n.id AS number FROM results r
         JOIN media m ON m.content_hash = r.content_hash
         JOIN contents n ON n.hash = r.content_hash ORDER BY m.id`,
      )
      .all();
    const coco = JSON.stringify({ id: 123456, bbox: [10.5, 20.25, 192, 86.4], area: 16588.8 });
    const at = Date.now();
    const write = db.transaction((slice: typeof contents) => {
      for (const c of slice) {
        const values: unknown[] = [];
        for (let k = 0; k < BOXES; k++)
          values.push(
            c.hash,
            'objects',
            0,
            null,
            'class1',
            0.5,
            0.1,
            0.2,
            0.1,
            0.08,
            null,
            0.11,
            0.2,
            0.1,
            0.08,
            'accepted',
            0,
            null,
            at,
            0,
            coco,
            1,
            0,
            c.number,
          );
        insert.run(values);
      }
      mirror.run(JSON.stringify(slice.map((c) => c.id)));
      marks.run(at, JSON.stringify(slice.map((c) => c.media)));
    });
    for (let i = 0; i < contents.length; i += CONTENTS_PER_TRANSACTION)
      write(contents.slice(i, i + CONTENTS_PER_TRANSACTION));
    db.pragma('wal_checkpoint(PASSIVE)');
    return { rows: contents.length * BOXES };
  } finally {
    db.close();
  }
}
