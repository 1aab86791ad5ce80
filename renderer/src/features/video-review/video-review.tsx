/**
 * Video review: the clip plays (through a proxy when Chromium cannot play the original), the boxes
 * of the nearest analysed frame follow the picture, a timeline shows detections per class. Paused
 * on a frame, its boxes are listed and edited. Keys: Space play/pause, `,` `.` one frame back or on,
 * A/R/Delete on the selected box, Ctrl+Z undo, Escape back to the library.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewEdit } from '../../../../electron/shared/contract/review-schemas.js';
import { useApiHandle } from '../../api/api-context.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { analysedFrames, detectionFrom, nearestFrame, shownBy } from './clip-frames.js';
import { DetectionTimeline } from './detection-timeline.js';
import { FrameBoxes } from './frame-boxes.js';
import { usePlayable } from './use-playable.js';
import { VideoOverlay } from './video-overlay.js';

interface VideoReviewProps {
  id: number;
  solution: string;
  onBack(): void;
}

const typing = (t: EventTarget | null) =>
  t instanceof HTMLInputElement ||
  t instanceof HTMLSelectElement ||
  t instanceof HTMLTextAreaElement;

export function VideoReview({ id, solution, onBack }: VideoReviewProps) {
  const { api } = useApiHandle();
  const client = useQueryClient();
  const detail = useCall('library.item', { id, solution });
  const review = useCall('review.boxes', { id, solution });
  const { playable, error, noPicture } = usePlayable(id);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [timeMs, setTimeMs] = useState(0);
  const [paused, setPaused] = useState(true);
  const [minScore, setMinScore] = useState(0);
  const [label, setLabel] = useState<string | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [editError, setEditError] = useState<unknown>(null);
  const undo = useRef<ReviewEdit[][]>([]);

  const boxes = useMemo(() => review.data?.boxes ?? [], [review.data]);
  const frames = useMemo(() => analysedFrames(boxes), [boxes]);
  const shown = useMemo(() => shownBy({ minScore, label }), [minScore, label]);
  const labels = useMemo(() => [...new Set(boxes.map((b) => b.label))].sort(), [boxes]);
  const frame = nearestFrame(frames, timeMs);
  const frameBoxes = useMemo(() => frame?.boxes.filter(shown) ?? [], [frame, shown]);
  const fps = playable?.fps ?? 25;
  const durationMs = playable?.durationMs ?? detail.data?.item.durationMs ?? 0;

  const refresh = useCallback(
    () =>
      Promise.all(
        ['review.boxes', 'library.item'].map((n) => client.invalidateQueries({ queryKey: [n] })),
      ),
    [client],
  );
  const edit = useCallback(
    async (e: ReviewEdit) => {
      setEditError(null);
      try {
        const r = await api.call('review.edit', { id, solution, edit: e });
        undo.current.push([r.inverse]);
        await refresh();
      } catch (err) {
        setEditError(err);
      }
    },
    [api, id, solution, refresh],
  );
  const relabelTrack = useCallback(
    async (trackId: number, newLabel: string) => {
      setEditError(null);
      try {
        const r = await api.call('review.relabelTrack', { id, solution, trackId, label: newLabel });
        if (r.inverse.length) undo.current.push(r.inverse);
        await refresh();
      } catch (err) {
        setEditError(err);
      }
    },
    [api, id, solution, refresh],
  );
  const undoLast = useCallback(async () => {
    const edits = undo.current.pop();
    if (!edits) return;
    try {
      await api.call('review.editMany', { id, solution, edits });
      await refresh();
    } catch (err) {
      setEditError(err);
    }
  }, [api, id, solution, refresh]);

  const seek = useCallback(
    (ms: number) => {
      if (!video) return;
      video.pause();
      video.currentTime = Math.max(0, ms / 1000);
      setTimeMs(ms);
    },
    [video],
  );
  const jump = useCallback(
    (step: 1 | -1) => {
      const at = video ? video.currentTime * 1000 : timeMs;
      const next = detectionFrom(frames, at, step, shown);
      if (next) seek(next.timeMs);
    },
    [video, timeMs, frames, shown, seek],
  );
  const toggle = useCallback(() => {
    if (!video) return;
    if (video.paused) void video.play();
    else video.pause();
  }, [video]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || typing(e.target)) return;
      const selected = frameBoxes.find((b) => b.key === selectedKey);
      const ref = selected && {
        detectionId: selected.detectionId,
        correctionId: selected.correctionId,
      };
      if (e.key === 'Escape') onBack();
      else if (e.key === ' ') toggle();
      else if (e.key === ',' || e.key === '.') {
        const t = video ? video.currentTime * 1000 : timeMs;
        seek(t + ((e.key === '.' ? 1 : -1) * 1000) / fps);
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') void undoLast();
      else if (ref && paused && (e.key === 'a' || e.key === 'r')) {
        void edit({ kind: e.key === 'a' ? 'accept' : 'reject', box: ref });
      } else if (ref && paused && (e.key === 'Delete' || e.key === 'Backspace')) {
        void edit({ kind: 'delete', box: ref });
      } else if (e.key === 'l' && selected) document.getElementById('video-relabel')?.focus();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [frameBoxes, selectedKey, onBack, toggle, video, timeMs, fps, seek, undoLast, paused, edit]);

  const name = detail.data?.item.name ?? 'Loading…';
  return (
    <div className="screen viewer video-review">
      <div className="screen-head">
        <button type="button" onClick={onBack}>
          Back to library
        </button>
        <h1 className="viewer-title">{name}</h1>
        {playable?.variant === 'proxy' ? (
          <span className="muted">Playing a proxy ({playable.reason})</span>
        ) : null}
      </div>
      {error ? <ErrorNote error={error} /> : null}
      {playable?.error ? <ErrorNote error={playable.error} /> : null}
      <div className="viewer-body">
        <div className="viewer-stage video-stage">
          {playable?.state === 'making' ? (
            <div className="progress-line">
              <span>Making a playable copy…</span>
              <progress aria-label="Proxy" max={1} value={playable.progress} />
            </div>
          ) : null}
          {playable?.state === 'ready' ? (
            <div className="media-frame">
              <video
                ref={setVideo}
                src={playable.url}
                preload="auto"
                aria-label={name}
                onLoadedData={(e) => e.currentTarget.videoWidth === 0 && noPicture()}
                onPlay={() => setPaused(false)}
                onPause={() => setPaused(true)}
                onSeeked={(e) => setTimeMs(e.currentTarget.currentTime * 1000)}
              />
              <VideoOverlay
                video={video}
                frames={frames}
                shown={shown}
                selectedKey={selectedKey}
                onFrame={setTimeMs}
              />
            </div>
          ) : null}
          <div className="video-controls">
            <button type="button" onClick={toggle} disabled={!video}>
              {paused ? 'Play' : 'Pause'}
            </button>
            <button type="button" onClick={() => jump(-1)} disabled={!video}>
              Previous detection
            </button>
            <button type="button" onClick={() => jump(1)} disabled={!video}>
              Next detection
            </button>
            <span className="muted" aria-label="Time">
              {(timeMs / 1000).toFixed(2)} s / {(durationMs / 1000).toFixed(1)} s
            </span>
            <label className="filter inline">
              <span>Class</span>
              <select value={label ?? ''} onChange={(e) => setLabel(e.target.value || null)}>
                <option value="">All classes</option>
                {labels.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            </label>
            <label className="filter inline">
              <span>Score threshold {minScore.toFixed(2)}</span>
              <input
                type="range"
                aria-label="Score threshold"
                min={0}
                max={1}
                step={0.05}
                value={minScore}
                onChange={(e) => setMinScore(Number(e.target.value))}
              />
            </label>
          </div>
          <DetectionTimeline
            frames={frames}
            shown={shown}
            durationMs={durationMs}
            timeMs={timeMs}
            onSeek={seek}
          />
        </div>
        <aside className="viewer-side">
          <h2>
            {frame ? `Boxes at ${(frame.timeMs / 1000).toFixed(2)} s` : 'Boxes'} (
            {frameBoxes.length})
          </h2>
          {editError ? <ErrorNote error={editError} /> : null}
          <FrameBoxes
            boxes={frameBoxes}
            selectedKey={selectedKey}
            onSelect={setSelectedKey}
            onEdit={paused ? (e) => void edit(e) : null}
            onRelabelTrack={(t, l) => void relabelTrack(t, l)}
          />
          <button type="button" onClick={() => void undoLast()}>
            Undo
          </button>
        </aside>
      </div>
    </div>
  );
}
