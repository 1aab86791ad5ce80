/**
 * The desktops of the team bench: each a real SQLite library holding the same files and model
 * answers (a copy of one built library: every member has the project's files), joined to the
 * bench's project, and edited with the review's own service (the corrected set's edit path, the
 * migration's triggers filling the outbox in each edit's transaction).
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import { ReviewService } from '../electron/core/review/review-service.js';
import type { LibraryStore } from '../electron/core/store/store-types.js';
import { buildLibrary } from './bench-library.js';
import type { HubMember } from './team-hub.js';

export const TEAM_SOLUTION = 'objects';

/** The path of image i in every member's library (bench-library.ts's layout). */
export const imagePath = (i: number) =>
  `/data/cam-${i % 10}/frame-${String(i).padStart(6, '0')}.jpg`;

/** Builds the library every member starts from: `images` images of 10 model boxes. */
export function buildBaseLibrary(dir: string, images: number): string {
  const file = join(dir, 'base.sqlite');
  buildLibrary(file, images);
  return file;
}

/** A member's desktop: a copy of the base library, joined to the project as `member`. */
export async function memberLibrary(
  base: string,
  dir: string,
  member: Pick<HubMember, 'name' | 'address'>,
  project: string,
): Promise<{ file: string; store: LibraryStore }> {
  const file = join(dir, `${member.name}.sqlite`);
  await copyFile(base, file);
  const store = openLibraryStore(file);
  store.team.setLink(
    {
      hub: member.address,
      project,
      folder: '/data',
      member: member.name,
      role: member.name === 'lead' ? 'lead' : 'annotator',
    },
    Date.now(),
  );
  return { file, store };
}

/** The review of one member's library, and the ids of its images by index. */
export function reviewOf(store: LibraryStore): {
  review: ReviewService;
  mediaId: (i: number) => number;
} {
  const review = new ReviewService(store);
  const mediaId = (i: number) => {
    const media = store.media.byPath(imagePath(i));
    if (!media) throw new Error(`no image ${i} in the bench library`);
    return media.id;
  };
  return { review, mediaId };
}

/**
 * Relabels every model box of images [first, end): one edit at a time, as a person's clicks save
 * them (each its own transaction), or `perImage`, an image's boxes in one bulk edit (one
 * transaction each). The label names the round, so a box edited again changes.
 */
export function relabelImages(
  store: LibraryStore,
  range: { first: number; end: number; round: string; perImage?: boolean },
): number {
  const { review, mediaId } = reviewOf(store);
  const relabel = (b: { detectionId: number | null; correctionId: number | null; label: string }) =>
    ({
      kind: 'relabel',
      box: { detectionId: b.detectionId, correctionId: b.correctionId },
      label: `${range.round}-${b.label}`,
    }) as const;
  let edits = 0;
  for (let i = range.first; i < range.end; i++) {
    const id = mediaId(i);
    if (range.perImage) {
      edits += review.bulk(id, TEAM_SOLUTION, () => true, relabel).inverse.length;
      continue;
    }
    for (const b of review.item(id, TEAM_SOLUTION, false).boxes) {
      review.edit(id, TEAM_SOLUTION, relabel(b));
      edits++;
    }
  }
  return edits;
}
