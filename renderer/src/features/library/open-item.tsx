/**
 * One library item opened: clips go to the video review, images to the image review. Next and
 * previous walk the library's current order and filter.
 */
import { Suspense } from 'react';
import { useCall } from '../../api/use-call.js';
import { ImageReview, VideoReview } from '../../app/later-code.js';
import type { ReviewScreenProps } from '../review/image-review.js';

export function OpenItem(p: ReviewScreenProps) {
  // The same query as the screens below: answered once, from the cache for them (no boxes:
  // the screens read those by review.boxes).
  const detail = useCall('library.item', { id: p.id, solution: p.solution, withBoxes: false });
  const opening = <p className="muted">Opening…</p>;
  if (detail.data?.item.kind === 'video') {
    return (
      <Suspense fallback={opening}>
        <VideoReview {...p} />
      </Suspense>
    );
  }
  // Not known yet: an image review would ask for a long clip's boxes in the wrong form.
  if (detail.isPending) return opening;
  // An image (or an error, which the review screen shows).
  return (
    <Suspense fallback={opening}>
      <ImageReview {...p} />
    </Suspense>
  );
}
