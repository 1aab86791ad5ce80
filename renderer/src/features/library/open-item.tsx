/**
 * One library item opened: clips go to the video review, images to the image review. Next and
 * previous walk the library's current order and filter.
 */
import { useCall } from '../../api/use-call.js';
import { ImageReview, type ReviewScreenProps } from '../review/image-review.js';
import { VideoReview } from '../video-review/video-review.js';

export function OpenItem(p: ReviewScreenProps) {
  // The same query as the screens below: answered once, from the cache for them (no boxes:
  // the screens read those by review.boxes).
  const detail = useCall('library.item', { id: p.id, solution: p.solution, withBoxes: false });
  if (detail.data?.item.kind === 'video') {
    return <VideoReview {...p} />;
  }
  // Not known yet: an image review would ask for a long clip's boxes in the wrong form.
  if (detail.isPending) return <p className="muted">Opening…</p>;
  // An image (or an error, which the review screen shows).
  return <ImageReview {...p} />;
}
