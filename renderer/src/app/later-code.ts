/**
 * Code the first paint does not need, in chunks of their own: the screens other than the Library
 * and the review of an opened item. The Library's grid paints without parsing them (~40% of the
 * app's script); each is fetched on its first visit. Not fetched ahead when idle: compiling a
 * chunk is one task of 50–70 ms on this machine while a new folder is hashed (the app bench's
 * longest UI task), against tens of ms once on a first visit.
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
