/**
 * Code the first paint does not need, in chunks of their own: the screens other than the Library
 * and the review of an opened item. The Library's grid paints without parsing them (~40% of the
 * app's script); they are fetched once the browser is idle after start, so a visit later finds
 * them loaded, as before.
 */
import { lazy } from 'react';

const load = {
  folders: () => import('../features/folders/folders-screen.js'),
  runs: () => import('../features/runs/runs-screen.js'),
  quality: () => import('../features/quality/quality-screen.js'),
  service: () => import('../features/service/service-screen.js'),
  team: () => import('../features/team/team-screen.js'),
  imageReview: () => import('../features/review/image-review.js'),
  videoReview: () => import('../features/video-review/video-review.js'),
};

export const FoldersScreen = lazy(() => load.folders().then((m) => ({ default: m.FoldersScreen })));
export const RunsScreen = lazy(() => load.runs().then((m) => ({ default: m.RunsScreen })));
export const QualityScreen = lazy(() => load.quality().then((m) => ({ default: m.QualityScreen })));
export const ServiceScreen = lazy(() => load.service().then((m) => ({ default: m.ServiceScreen })));
export const TeamScreen = lazy(() => load.team().then((m) => ({ default: m.TeamScreen })));
export const ImageReview = lazy(() => load.imageReview().then((m) => ({ default: m.ImageReview })));
export const VideoReview = lazy(() => load.videoReview().then((m) => ({ default: m.VideoReview })));

/**
 * Fetches the later chunks one at a time, each when the browser is next idle (at the latest after
 * `ms`): each chunk's evaluation is a task of its own, never one long task beside the UI's work.
 */
export function loadLaterCode(ms = 2000): () => void {
  const queue = Object.values(load);
  let stopped = false;
  let cancel: () => void = () => undefined;
  const next = () => {
    const f = queue.shift();
    if (stopped || !f) return;
    cancel = whenIdle(() => void f().then(next, next), ms);
  };
  next();
  return () => {
    stopped = true;
    cancel();
  };
}

function whenIdle(run: () => void, ms: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: ms });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
}
