/** The Library screen's calls: pages, ids for selections, per-class counts and one item's boxes. */
import type { ViewItem } from '../core/store/library-view.js';
import type { AsyncView } from '../core/store/library-view-client.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { LabelDeskError, type Handlers, type LibraryItem } from '../shared/contract/index.js';

type LibraryHandlers = Pick<
  Handlers,
  'library.page' | 'library.ids' | 'library.classCounts' | 'library.item'
>;

export function libraryHandlers(store: LibraryStore, view: AsyncView): LibraryHandlers {
  return {
    'library.page': async (q) => {
      const [total, items] = await Promise.all([view.count(q.filter), view.page(q)]);
      return { total, offset: q.offset, items: items.map(toLibraryItem) };
    },
    'library.ids': (q) => view.ids(q),
    'library.classCounts': (filter) => view.classCounts(filter),
    'library.item': async ({ id, solution }) => {
      const item = await view.item(id, solution);
      if (!item) throw new LabelDeskError('unknown_item', 'That file is no longer in the library.');
      const result =
        item.resultId === null ? undefined : store.results.find(contentHashOf(store, id), solution);
      const boxes = result ? store.results.detections(result.id) : [];
      return {
        item: toLibraryItem(item),
        analysedWidth: result?.analysedWidth ?? null,
        analysedHeight: result?.analysedHeight ?? null,
        model: result?.model ?? null,
        boxes: boxes.map((d) => ({
          id: d.id,
          frameIndex: d.frameIndex,
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

function contentHashOf(store: LibraryStore, id: number): string {
  return store.media.byId(id)?.contentHash ?? '';
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
    errorCode: v.errorCode,
    errorMessage: v.errorMessage,
  };
}
