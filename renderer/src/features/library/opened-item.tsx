/**
 * The item opened from the library: images open in the review screen; clips in the clip viewer.
 * Next/previous walk the library's current order and filter.
 */
import type { CallInput } from '../../../../electron/shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { ImageReview } from '../review/image-review.js';
import type { UndoStack } from '../review/undo-stack.js';
import { ItemViewer } from './viewer/item-viewer.js';

interface OpenedItemProps {
  id: number;
  solution: string;
  mediaBase: string;
  order: Omit<CallInput<'library.ids'>, 'offset' | 'limit'>;
  classes: readonly string[];
  undo: UndoStack;
  onOpen(id: number): void;
  onBack(): void;
}

export function OpenedItem(p: OpenedItemProps) {
  const detail = useCall('library.item', { id: p.id, solution: p.solution });
  const kind = detail.data?.item.kind;
  if (kind === 'video') {
    return <ItemViewer id={p.id} solution={p.solution} mediaBase={p.mediaBase} onBack={p.onBack} />;
  }
  // An image, or still loading: the review screen shows its own loading state.
  return <ImageReview {...p} />;
}
