/**
 * One library item opened: clips go to the video review, images to the image review. Next and
 * previous walk the library's current order and filter.
 */
import type { CallInput } from '../../../../electron/shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { ImageReview } from '../review/image-review.js';
import type { UndoStack } from '../review/undo-stack.js';
import { VideoReview } from '../video-review/video-review.js';

interface OpenItemProps {
  id: number;
  solution: string;
  mediaBase: string;
  order: Omit<CallInput<'library.ids'>, 'offset' | 'limit'>;
  classes: readonly string[];
  undo: UndoStack;
  onOpen(id: number): void;
  onBack(position?: number): void;
}

export function OpenItem(p: OpenItemProps) {
  // The same query as the screens below: answered once, from the cache for them.
  const detail = useCall('library.item', { id: p.id, solution: p.solution });
  if (detail.data?.item.kind === 'video') {
    return <VideoReview {...p} />;
  }
  // An image, or still loading: the review screen shows its own loading state.
  return <ImageReview {...p} />;
}
