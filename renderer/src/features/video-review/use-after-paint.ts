/**
 * `value`, one frame late: a new value is rendered in a render of its own just after the browser
 * has painted the current one, in one piece (`useDeferredValue` renders it as a transition in 5 ms
 * slices with frames in between). An edit on a long clip shows on the picture and the timeline at
 * once, and the Tracks, chart and Events follow it.
 *
 * A value that replaces one for which `showAtOnce` holds (nothing shown yet: a clip opening) is
 * rendered at once: with nothing on screen, waiting for a paint only adds a frame and a task to
 * the moment everything is there (a 2-hour clip's summary came ~40 ms later that way).
 */
import { useEffect, useState } from 'react';

export function useAfterPaint<T>(value: T, showAtOnce: (shown: T) => boolean): T {
  const [shown, setShown] = useState(value);
  const atOnce = !Object.is(shown, value) && showAtOnce(shown);
  useEffect(() => {
    if (Object.is(shown, value)) return;
    if (atOnce) return setShown(value);
    // A frame callback runs before that frame's paint; a task it posts runs after the paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown(value), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, value, atOnce]);
  return atOnce ? value : shown;
}
