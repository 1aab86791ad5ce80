/**
 * One library item opened: the picture or clip with its boxes (read-only), and the Boxes list.
 * Escape or "Back to library" returns. The next issue's review screen replaces the read-only parts.
 */
import { useEffect, useMemo, useState } from 'react';
import { useCall } from '../../../api/use-call.js';
import { ErrorNote } from '../../../ui/error-note.js';
import { bytes } from '../../../ui/format.js';
import { BoxCanvas } from './box-canvas.js';
import { boxesAt } from './box-geometry.js';
import { BoxesList } from './boxes-list.js';

interface ItemViewerProps {
  id: number;
  solution: string;
  mediaBase: string;
  onBack(): void;
}

export function ItemViewer({ id, solution, mediaBase, onBack }: ItemViewerProps) {
  const detail = useCall('library.item', { id, solution });
  const [media, setMedia] = useState<HTMLImageElement | HTMLVideoElement | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [timeMs, setTimeMs] = useState(0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onBack();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onBack]);

  const d = detail.data;
  const isClip = d?.item.kind === 'video';
  const shown = useMemo(
    () => (d ? boxesAt(d.boxes, isClip ? timeMs : null) : []),
    [d, isClip, timeMs],
  );

  return (
    <div className="screen viewer">
      <div className="screen-head">
        <button type="button" onClick={onBack}>
          Back to library
        </button>
        <h1 className="viewer-title" title={d?.item.path}>
          {d?.item.name ?? 'Loading…'}
        </h1>
        {d ? (
          <span className="muted">
            {d.item.width && d.item.height ? `${d.item.width}×${d.item.height} · ` : ''}
            {bytes(d.item.size)} · {d.item.status}
            {d.model ? ` · ${d.model}` : ''}
          </span>
        ) : null}
      </div>
      {detail.isError ? <ErrorNote error={detail.error} /> : null}
      {d ? (
        <div className="viewer-body">
          <div className="viewer-stage">
            <div className="media-frame">
              {isClip ? (
                <video
                  ref={setMedia}
                  src={`${mediaBase}file/${id}`}
                  controls
                  preload="metadata"
                  onTimeUpdate={(e) => setTimeMs(e.currentTarget.currentTime * 1000)}
                  onSeeked={(e) => setTimeMs(e.currentTarget.currentTime * 1000)}
                />
              ) : (
                <img ref={setMedia} src={`${mediaBase}file/${id}`} alt={d.item.name} />
              )}
              <BoxCanvas boxes={shown} selectedId={selectedId} target={media} />
            </div>
            {d.item.errorMessage ? (
              <ErrorNote
                error={{ code: d.item.errorCode ?? 'error', message: d.item.errorMessage }}
              />
            ) : null}
          </div>
          <aside className="viewer-side">
            <h2>
              {isClip ? `Boxes at ${(timeMs / 1000).toFixed(1)} s` : 'Boxes'} ({shown.length})
            </h2>
            {shown.length === 0 ? <p className="muted">No boxes.</p> : null}
            <BoxesList boxes={shown} selectedId={selectedId} onSelect={setSelectedId} />
          </aside>
        </div>
      ) : null}
    </div>
  );
}
