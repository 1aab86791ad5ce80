/**
 * `value`, one frame late: a new value is rendered in a render of its own just after the browser
 * has painted the current one, in one piece. `useDeferredValue` renders it as a transition in
 * 5 ms slices with frames in between: opening a 2-hour clip, the Tracks, chart and Events came
 * ~120 ms after the timeline for ~75 ms of work.
 */
import { useEffect, useState } from 'react';

export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (Object.is(shown, value)) return;
    // A frame callback runs before that frame's paint; a task it posts runs after the paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown(value), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, value]);
  return shown;
}
