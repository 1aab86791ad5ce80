/** Which track a box drawn now joins as a keyframe, and a way to start a new one instead. */
export function KeyframeTrack({ track, onNew }: { track: number | null; onNew(): void }) {
  if (track === null) return null;
  return (
    <span className="muted" role="status">
      Drawn boxes join track #{track}{' '}
      <button type="button" onClick={onNew}>
        New track
      </button>
    </span>
  );
}
