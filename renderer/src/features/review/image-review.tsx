/**
 * Image review: the picture (EXIF-oriented by the browser) on the box stage, with the workbench
 * shared with the clip review (toolbar, label picker, Boxes list, the registry's review keys).
 * Every edit goes through useReviewEdits (shown and saved at once, undoable across items).
 */
import { useMemo, useState } from 'react';
import type { CallInput } from '@shared/contract/index.js';
import type { Size } from '@shared/geometry/box-math.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { BoxStage } from './box-stage.js';
import { ReanalyseButton } from './reanalyse-dialog.js';
import '../../styles/review.css';
import type { ReviewSession } from './review-session.js';
import { useItemOrder } from './use-item-order.js';
import { useReviewWorkbench } from './use-review-workbench.js';
import { ReviewHead, WorkbenchSide, WorkbenchToolbar } from './workbench-parts.js';

export interface ReviewScreenProps {
  id: number;
  solution: string;
  mediaBase: string;
  order: Omit<CallInput<'library.ids'>, 'offset' | 'limit'>;
  classes: readonly string[];
  /** Selection, tool and undo across items (kept while the library screen lives). */
  session: ReviewSession;
  onOpen(id: number): void;
  /** Back to the library, focused on the item reviewed last (its position in the order). */
  onBack(position?: number): void;
  /** The box selected when the item opens (a mistake opened from the Quality screen). */
  focusKey?: string | null;
}

const IMAGE_FRAME = { frameIndex: 0, timeMs: null };

export function ImageReview(p: ReviewScreenProps) {
  const { id, solution } = p;
  const detail = useCall('library.item', { id, solution, withBoxes: false });
  const boxesQ = useCall('review.boxes', { id, solution });
  const nav = useItemOrder(p.order, id, p.mediaBase);
  const [picture, setPicture] = useState<{ id: number; size: Size } | null>(null);
  const size = picture?.id === id ? picture.size : null;
  const all = useMemo(() => boxesQ.data?.boxes ?? [], [boxesQ.data]);
  const w = useReviewWorkbench({
    ...p,
    itemBoxes: all,
    boxes: all,
    picture: size,
    target: IMAGE_FRAME,
    clip: false,
    emptyFile: boxesQ.data !== undefined && !all.some((b) => b.review !== 'rejected'),
    nav,
  });

  const item = detail.data?.item;
  const name = item?.name ?? '';
  return (
    <div className="screen review">
      <ReviewHead
        name={name}
        path={item?.path}
        nav={nav}
        detail={size ? ` · ${size.width}×${size.height}` : ''}
        mark={w.reviewed}
        next={w.reviewNext}
        onOpen={p.onOpen}
        onBack={p.onBack}
      />
      <WorkbenchToolbar w={w}>
        <ReanalyseButton
          mediaIds={[id]}
          solution={solution}
          onStarted={() => void boxesQ.refetch()}
        />
      </WorkbenchToolbar>
      {boxesQ.isError ? <ErrorNote error={boxesQ.error} /> : null}
      <div className="viewer-body">
        <BoxStage name={name} picture={size} boxes={w.drawn} {...w.stageProps}>
          <img
            key={id}
            src={`${p.mediaBase}file/${id}`}
            alt=""
            draggable={false}
            onLoad={(e) =>
              setPicture({
                id,
                size: {
                  width: e.currentTarget.naturalWidth,
                  height: e.currentTarget.naturalHeight,
                },
              })
            }
          />
        </BoxStage>
        <WorkbenchSide w={w} title="Boxes" total={all.length} loaded={boxesQ.data !== undefined} />
      </div>
    </div>
  );
}
