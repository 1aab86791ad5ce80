/**
 * What an edit does to the boxes on screen, applied before the call answers (the server's answer
 * then replaces the box). Pure.
 */
import type { ReviewBox, ReviewEdit } from '@shared/contract/review-schemas.js';

/** `key` names the box for every edit but `add`, whose box gets `key` until the server names it. */
export function applyLocal(
  boxes: readonly ReviewBox[],
  key: string,
  edit: ReviewEdit,
): ReviewBox[] {
  if (edit.kind === 'add') {
    const added: ReviewBox = {
      key,
      detectionId: null,
      correctionId: null,
      frameIndex: edit.frameIndex,
      ...(edit.keyframe ? { keyframe: true } : {}),
      timeMs: edit.timeMs,
      label: edit.label,
      score: 1,
      bbox: edit.bbox,
      origin: 'added',
      review: 'accepted',
      deleted: false,
      model: null,
      trackId: null,
      rule: null,
    };
    return [...boxes, added];
  }
  if (edit.kind === 'delete') return boxes.filter((b) => b.key !== key);
  return boxes.map((b) => {
    if (b.key !== key) return b;
    // Any edit by a person makes the box the person's (the server clears the rule too).
    b = { ...b, rule: null };
    switch (edit.kind) {
      case 'move':
      case 'resize':
        return { ...b, bbox: edit.bbox, origin: b.origin === 'model' ? 'edited' : b.origin };
      case 'relabel':
        return { ...b, label: edit.label, origin: b.origin === 'model' ? 'edited' : b.origin };
      case 'accept':
        return { ...b, review: 'accepted' };
      case 'reject':
        return { ...b, review: 'rejected' };
      default:
        return b;
    }
  });
}

/** The server's box in place of the one with `key` (or removed when the edit hid it). */
export function replaceBox(
  boxes: readonly ReviewBox[],
  key: string,
  box: ReviewBox | null,
): ReviewBox[] {
  if (box === null) return boxes.filter((b) => b.key !== key);
  let found = false;
  const out = boxes.map((b) => {
    if (b.key !== key && b.key !== box.key) return b;
    found = true;
    return box;
  });
  // The answer may rename the box (a drawn box gets its correction's key): drop a duplicate.
  const seen = new Set<string>();
  const unique = out.filter((b) => (seen.has(b.key) ? false : (seen.add(b.key), true)));
  return found ? unique : [...unique, box];
}

/**
 * An edit's answer while a later edit of the same box is still being saved: the box takes the
 * answer's identity (a drawn box gets its correction's key and id, which the later edit names)
 * and keeps what the later edits show, which their own answers settle. Replacing it whole would
 * show the box where it was before the later edit until that one answers.
 */
export function adoptIdentity(
  boxes: readonly ReviewBox[],
  key: string,
  box: ReviewBox | null,
): ReviewBox[] {
  const local = box && (boxes.find((b) => b.key === key) ?? boxes.find((b) => b.key === box.key));
  if (!box || !local) return replaceBox(boxes, key, box);
  const { detectionId, correctionId } = box;
  return replaceBox(boxes, key, {
    ...local,
    key: box.key,
    detectionId,
    correctionId,
    trackId: local.trackId ?? box.trackId,
  });
}

/** A box's reference for an edit. */
export function refOf(b: ReviewBox): { detectionId: number | null; correctionId: number | null } {
  return { detectionId: b.detectionId, correctionId: b.correctionId };
}

/**
 * A failed edit taken back: the boxes it named return to how the snapshot (taken before it was
 * shown) had them, a box it added goes away, and every other box keeps what later edits did.
 */
export function rollBack(
  boxes: readonly ReviewBox[],
  snapshot: readonly ReviewBox[],
  keys: readonly string[],
): ReviewBox[] {
  let out = boxes.filter((b) => !keys.includes(b.key) || snapshot.some((s) => s.key === b.key));
  for (const key of keys) {
    const before = snapshot.find((s) => s.key === key);
    if (before) out = replaceBox(out, key, before);
  }
  return out;
}
