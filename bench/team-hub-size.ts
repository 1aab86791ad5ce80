/**
 * A project of many files in the hub, filled inside PostgreSQL (generate_series; nothing crosses
 * the wire): its files, one model answer per file of ten boxes (jsonb, as desktops share them),
 * and people's changes of one box in ten. The push, pull and latency figures are then measured on
 * this hub, after the fill. Sizes are pg_total_relation_size (table, indexes and TOAST).
 */
import type postgres from 'postgres';
import { SCHEMA } from './team-hub.js';
import { quoteIdent } from '../electron/core/team/hub-schema.js';

const S = quoteIdent(SCHEMA);
export const BOXES_PER_FILE = 10;

export interface HubSize {
  files: number;
  boxes: number;
  changes: number;
  fillMs: number;
  answersBytes: number;
  filesBytes: number;
  changesBytes: number;
}

/** One box's state as a change carries it (migration 10's columns), k-th box of file i. */
const STATE_SQL = `jsonb_build_object('frameIndex', 0, 'timeMs', null,
  'anchorLabel', 'class' || (i % 80), 'anchorScore', 0.5, 'anchorX', 0.1, 'anchorY', 0.2,
  'anchorW', 0.1, 'anchorH', 0.08, 'label', 'class' || ((i + 1) % 80), 'x', null, 'y', null,
  'w', null, 'h', null, 'review', 'accepted', 'deleted', 0, 'track', null)`;

export async function fillHub(sql: postgres.Sql, files: number): Promise<HubSize> {
  const t = performance.now();
  await sql.unsafe(
    `INSERT INTO ${S}.files (content_hash, rel_path, size, kind, width, height, added_by)
     SELECT 'big' || i, 'cam-' || (i % 10) || '/frame-' || lpad(i::text, 7, '0') || '.jpg',
       250000, 'image', 1920, 1080, 'lead'
     FROM generate_series(1, $1::integer) i`,
    [files],
  );
  await sql.unsafe(
    `INSERT INTO ${S}.answers (content_hash, solution, service, answer, paid_by)
     SELECT 'big' || i, 'objects', 'http://127.0.0.1:8080', jsonb_build_object(
       'analysedWidth', 640, 'analysedHeight', 360, 'model', 'centernet',
       'detections', (SELECT jsonb_agg(jsonb_build_object('frameIndex', 0, 'timeMs', null,
         'label', 'class' || ((i + k) % 80), 'classId', (i + k) % 80,
         'score', round((0.3 + ((i * k) % 70) / 100.0)::numeric, 4),
         'bbox', jsonb_build_object('x', ((i * 7 + k * 13) % 90) / 100.0,
           'y', ((i * 3 + k * 29) % 90) / 100.0, 'w', 0.1, 'h', 0.08)))
         FROM generate_series(0, ${BOXES_PER_FILE - 1}) k)), 'lead'
     FROM generate_series(1, $1::integer) i`,
    [files],
  );
  await sql.unsafe(
    `INSERT INTO ${S}.changes (id, member, kind, payload)
     SELECT gen_random_uuid(), 'lead', 'box', jsonb_build_object(
       'box', 'model:objects:big' || i || ':0:class' || (i % 80) || ':0.10000,0.20000,0.10000,0.08000',
       'contentHash', 'big' || i, 'solution', 'objects', 'parents', '[]'::jsonb,
       'state', ${STATE_SQL}, 'at', 1700000000000 + i)
     FROM generate_series(1, $1::integer) i`,
    [files],
  );
  await sql.unsafe(`VACUUM ANALYZE ${S}.files, ${S}.answers, ${S}.changes`);
  const fillMs = performance.now() - t;
  const [sizes] = await sql.unsafe<{ answers: string; files: string; changes: string }[]>(
    `SELECT pg_total_relation_size('${SCHEMA}.answers') AS answers,
       pg_total_relation_size('${SCHEMA}.files') AS files,
       pg_total_relation_size('${SCHEMA}.changes') AS changes`,
  );
  return {
    files,
    boxes: files * BOXES_PER_FILE,
    changes: files,
    fillMs,
    answersBytes: Number(sizes?.answers ?? 0),
    filesBytes: Number(sizes?.files ?? 0),
    changesBytes: Number(sizes?.changes ?? 0),
  };
}
