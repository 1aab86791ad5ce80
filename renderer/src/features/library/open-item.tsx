/** One library item opened: clips go to the video review, images to the item viewer. */
import { useCall } from '../../api/use-call.js';
import { VideoReview } from '../video-review/video-review.js';
import { ItemViewer } from './viewer/item-viewer.js';

interface OpenItemProps {
  id: number;
  solution: string;
  mediaBase: string;
  onBack(): void;
}

export function OpenItem({ id, solution, mediaBase, onBack }: OpenItemProps) {
  // The same query as the screens below: answered once, from the cache for them.
  const detail = useCall('library.item', { id, solution });
  if (detail.isPending) return null;
  if (detail.data?.item.kind === 'video') {
    return <VideoReview id={id} solution={solution} onBack={onBack} />;
  }
  return <ItemViewer id={id} solution={solution} mediaBase={mediaBase} onBack={onBack} />;
}
