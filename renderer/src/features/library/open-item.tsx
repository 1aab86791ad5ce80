/**
 * One library item opened: clips go to the video review, images to the image review. Next and
 * previous walk the library's current order and filter.
 */
import { useCall } from '../../api/use-call.js';
import { ImageReview, type ReviewScreenProps } from '../review/image-review.js';
import { VideoReview } from '../video-review/video-review.js';

export function OpenItem(p: ReviewScreenProps) {
  // The same query as the screens below: answered once, from the cache for them.
  const detail = useCall('library.item', { id: p.id, solution: p.solution });
  if (detail.data?.item.kind === 'video') {
    return <VideoReview {...p} />;
  }
  // An image, or still loading: the review screen shows its own loading state.
  return <ImageReview {...p} />;
}
