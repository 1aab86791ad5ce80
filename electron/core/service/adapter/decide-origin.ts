/**
 * Never a silent misreading of a box's x,y (issue 23 §3). When bbox and bboxPx both put x,y first
 * (`{x,y,w,h}`, `{x,y,width,height}` or arrays) and nobody has said whether x,y is the corner or
 * the centre, both readings are tried, and the answer's own evidence decides, in this order:
 *  1. a reading that puts a box outside the picture is ruled out;
 *  2. over many boxes (a clip's frames, at least MIN_BOXES), a reading whose boxes all lean one
 *     way from where the objects are is unlikely: read as corners, centres push every box right
 *     and down by half its size (as centres, corners push them left and up), so the boxes' mean
 *     offset from the middle of the picture is far larger in the wrong reading than in the right;
 *  3. nothing decides: read as corners, and said to be undecided (a note on BOX_ORIGIN_FIELD),
 *     for doctor (exit 6), the plan and the run ("box origin assumed: corner — not confirmed")
 *     and the Service screen, where a person confirms on the preview.
 * A person's choice or the catalog's word (originConfirmed) is used as it is, as before.
 */
import { BOX_ORIGIN_FIELD, type OriginEvidence, type ReadingSettings } from './adapter-types.js';
import { formOf, usesOrigin } from './box-forms.js';
import {
  decideForms,
  UNDECIDED_ARRAYS,
  type DecidedBoxes,
  type RawBoxes,
} from './decide-box-forms.js';
import { Notes, Problems } from './notes.js';

type Origin = ReadingSettings['boxOrigin'];

/** Boxes enough for where they sit to decide (fewer say little about a service's habit). */
const MIN_BOXES = 30;

const WORDS: Record<Origin, string> = { corner: 'the top-left corner', centre: 'the centre' };
const OTHER: Record<Origin, Origin> = { corner: 'centre', centre: 'corner' };

/** decideForms, with the origin decided by the boxes when nobody has said it. */
export function decideBoxes(...args: Parameters<typeof decideForms>): DecidedBoxes | null {
  const [raws, at, given, reading, notes, problems] = args;
  if (reading.originConfirmed !== false || !bothPutXYFirst(raws))
    return decideForms(raws, at, given, reading, notes, problems);
  let arraysUndecided = false;
  const tried = (boxOrigin: Origin) => {
    const trial = new Problems();
    const decided = decideForms(raws, at, given, { boxOrigin }, new Notes(), trial);
    arraysUndecided ||= trial.list.some((p) => p.endsWith(UNDECIDED_ARRAYS));
    return decided;
  };
  const corner = tried('corner');
  const centre = tried('centre');
  // The forms say where x,y is, nothing fits either way, or arrays stay undecided in one reading
  // (then a box outside rules out a reading of the arrays, not the origin): as before.
  if (arraysUndecided || (!corner && !centre) || (corner && centre && sameBoxes(corner, centre)))
    return decideForms(raws, at, given, reading, notes, problems);
  let origin: Origin;
  let why: string | null;
  if (!corner || !centre) {
    origin = corner ? 'corner' : 'centre';
    why = `with x,y as ${WORDS[OTHER[origin]]}, a box would lie outside the picture`;
  } else {
    const sums = evidenceOf(corner, centre, reading.originEvidence);
    const sitting = bySitting(sums);
    origin = sitting ?? 'corner';
    const many = sums.boxes > corner.boxes.length ? ` (${sums.boxes} boxes of this service)` : '';
    why =
      sitting === null
        ? null
        : `with x,y as ${WORDS[OTHER[origin]]}, the boxes would all lean ${origin === 'corner' ? 'left and up' : 'right and down'} of their objects${many}`;
  }
  const decided = decideForms(raws, at, given, { boxOrigin: origin }, notes, problems);
  if (why === null) {
    notes.notPublished(
      BOX_ORIGIN_FIELD,
      'x,y = the top-left corner — not confirmed (bbox and bboxPx read alike with x,y as the corner or the centre; confirm on the Service screen’s preview, or `labeldesk label --box-origin corner|centre`)',
    );
  } else
    notes.understoodAs(BOX_ORIGIN_FIELD, `x,y = ${WORDS[origin]}, decided by the boxes (${why})`);
  return decided;
}

/** Every bbox and bboxPx is x,y first (an object with x,y, or an array): the origin may matter. */
function bothPutXYFirst(raws: readonly RawBoxes[]): boolean {
  const xyFirst = (raw: unknown) => {
    const form = formOf(raw);
    return form === 'array' || (form !== null && usesOrigin(form));
  };
  return raws.length > 0 && raws.every((r) => xyFirst(r.bbox) && xyFirst(r.bboxPx));
}

function sameBoxes(a: DecidedBoxes, b: DecidedBoxes): boolean {
  return a.boxes.every((p, i) => {
    const q = b.boxes[i]?.bbox;
    return q !== undefined && Math.abs(p.bbox.x - q.x) < 1e-9 && Math.abs(p.bbox.y - q.y) < 1e-9;
  });
}

/** Where the boxes sit, read both ways: this answer's, added to the service's earlier ones. */
function evidenceOf(
  corner: DecidedBoxes,
  centre: DecidedBoxes,
  earlier: OriginEvidence | undefined,
): OriginEvidence {
  const sums = earlier ?? { boxes: 0, cornerX: 0, cornerY: 0, centreX: 0, centreY: 0 };
  corner.boxes.forEach(({ bbox: c }, i) => {
    const m = centre.boxes[i]?.bbox ?? c;
    sums.boxes++;
    sums.cornerX += 2 * c.x + c.w - 1;
    sums.cornerY += 2 * c.y + c.h - 1;
    sums.centreX += 2 * m.x + m.w - 1;
    sums.centreY += 2 * m.y + m.h - 1;
  });
  return sums;
}

/** The reading whose boxes lean far less than the other's, when there are boxes enough. */
function bySitting(s: OriginEvidence): Origin | null {
  if (s.boxes < MIN_BOXES) return null;
  // How far the boxes' middles lean, on average, from the middle of the picture (0–2).
  const c = (Math.abs(s.cornerX) + Math.abs(s.cornerY)) / s.boxes;
  const m = (Math.abs(s.centreX) + Math.abs(s.centreY)) / s.boxes;
  // The wrong reading moves every box by half its size: its lean is larger by about the mean
  // box size. Decided only when one is at most half the other, and clearly apart.
  if (Math.min(c, m) > 0.5 * Math.max(c, m) || Math.abs(c - m) < 0.2) return null;
  return c < m ? 'corner' : 'centre';
}
