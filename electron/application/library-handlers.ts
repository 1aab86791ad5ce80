/** The Library screen's calls: pages, ids for selections, per-class counts and one item's boxes. */
import { ReviewService, type ReviewReader } from '../core/review/review-service.js';
import type { ViewItem } from '../core/library-view/library-view.js';
import type { ViewFilter } from '../core/library-view/library-view-sql.js';
import type { AsyncView } from '../core/library-view/library-view-client.js';
import type { SettingsPort } from '../core/store/store-ports.js';
import type { ModelTrackCache } from '../core/tracking/model-track-cache.js';
import { storedMinScore, storeMinScore } from './library-min-score.js';
import { LabelDeskError, type Handlers, type LibraryItem } from '../shared/contract/index.js';

type LibraryHandlers = Pick<
  Handlers,
  | 'library.page'
  | 'library.ids'
  | 'library.classCounts'
  | 'library.item'
  | 'library.minScore'
  | 'library.setMinScore'
>;

/** Before a "Review priority" sort: the cached scores are brought up to date (review-next.ts). */
export type FreshPriority = (solution: string) => Promise<void>;

export function libraryHandlers(
  store: ReviewReader & SettingsPort,
  view: AsyncView,
  freshPriority: FreshPriority = () => Promise.resolve(),
  clips?: ModelTrackCache,
): LibraryHandlers {
  const review = new ReviewService(store, clips);
  const ready = (q: { sort: string; filter: { solution: string } }) =>
    q.sort === 'priority' ? freshPriority(q.filter.solution) : Promise.resolve();
  // The tiles' box counts (and the sort by boxes) count what the review shows: from the library's
  // minimum score up; which files match is still the filter's alone.
  const shown = <Q extends { filter: ViewFilter }>(q: Q): Q => ({
    ...q,
    filter: { ...q.filter, shownFrom: storedMinScore(store) },
  });
  return {
    'library.page': async (q) => {
      await ready(q);
      const [total, items] = await Promise.all([view.count(q.filter), view.page(shown(q))]);
      return { total, offset: q.offset, items: items.map(toLibraryItem) };
    },
    'library.ids': async (q) => {
      await ready(q);
      return view.ids(shown(q));
    },
    // Counted as the review shows and exports write them: from the library's minimum score up
    // (a stricter filter wins); a box without a score always counts.
    'library.classCounts': (filter) =>
      view.classCounts({
        ...filter,
        minScore: Math.max(filter.minScore ?? 0, storedMinScore(store)),
      }),
    'library.minScore': () => ({ minScore: storedMinScore(store) }),
    'library.setMinScore': ({ minScore }) => ({ minScore: storeMinScore(store, minScore) }),
    'library.item': async ({ id, solution, withBoxes }) => {
      const item = await view.item(id, solution);
      if (!item) throw new LabelDeskError('unknown_item', 'That file is no longer in the library.');
      const hash = store.media.byId(id)?.contentHash;
      // The corrected set: the model's boxes with a person's corrections laid over them (these
      // boxes carry no track, so a clip is not tracked for them).
      const { result, boxes } =
        item.resultId === null || !withBoxes
          ? { result: hash ? store.results.find(hash, solution) : undefined, boxes: [] }
          : review.item(id, solution, false);
      return {
        item: toLibraryItem(item),
        analysedWidth: result?.analysedWidth ?? null,
        analysedHeight: result?.analysedHeight ?? null,
        model: result?.model ?? null,
        boxes: boxes
          .filter((d) => !d.deleted)
          .map((d) => ({
            id: d.detectionId ?? d.correctionId ?? 0,
            key: d.key,
            frameIndex: d.frameIndex,
            ...(d.keyframe === true ? { keyframe: true as const } : {}),
            timeMs: d.timeMs,
            label: d.label,
            score: d.score,
            bbox: d.bbox,
            origin: d.origin,
            review: d.review,
          })),
      };
    },
  };
}

export function toLibraryItem(v: ViewItem): LibraryItem {
  return {
    id: v.id,
    path: v.path,
    name: v.name,
    kind: v.kind,
    size: v.size,
    width: v.width,
    height: v.height,
    durationMs: v.durationMs,
    status: v.status,
    boxes: v.boxes,
    pendingReview: v.pendingReview,
    byRule: v.byRule,
    reviewed: v.reviewed,
    errorCode: v.errorCode,
    errorMessage: v.errorMessage,
  };
}
