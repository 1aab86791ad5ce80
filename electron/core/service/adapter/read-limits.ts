/**
 * `catalog.limits`: each limit LabelDesk uses, read under any recognised name (case, `_` and `-`
 * ignored); a missing one is a conservative default, listed in `notPublished` with what is used.
 */
import type { ServiceLimits } from './adapter-types.js';
import type { Notes } from './notes.js';
import { isObject, looseNumberOf, squashedKeys, type Json } from './read-values.js';

const MB = 1024 * 1024;
/** No local check: the service's own answer (413, 415) decides, per file and at no cost. */
const UNCHECKED = Number.MAX_SAFE_INTEGER;
const KNOWN_IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif', 'bmp'];
const KNOWN_VIDEO_FORMATS = ['mp4', 'webm', 'mov', 'avi', 'mkv'];

type NumericLimit =
  | 'maxImageBytes'
  | 'maxVideoBytes'
  | 'maxVideoSeconds'
  | 'maxConcurrentRequests'
  | 'maxConcurrentJobs'
  | 'maxQueuedJobs'
  | 'hourFrames'
  | 'videoSampleFps';

interface NumericRule {
  /** Squashed names, each with the factor that turns its unit into ours. */
  names: readonly (readonly [string, number])[];
  fallback: number;
  using: string;
}

const RULES: Record<NumericLimit, NumericRule> = {
  maxImageBytes: {
    names: [
      ['maximagebytes', 1],
      ['imagemaxbytes', 1],
      ['maximagesize', 1],
      ['maximagemb', MB],
    ],
    fallback: UNCHECKED,
    using: 'no size check before sending (the service refuses what it cannot take, at no cost)',
  },
  maxVideoBytes: {
    names: [
      ['maxvideobytes', 1],
      ['videomaxbytes', 1],
      ['maxvideosize', 1],
      ['maxvideomb', MB],
    ],
    fallback: UNCHECKED,
    using: 'no size check before sending (the service refuses what it cannot take, at no cost)',
  },
  maxVideoSeconds: {
    names: [
      ['maxvideoseconds', 1],
      ['maxvideosec', 1],
      ['maxvideoduration', 1],
      ['maxvideodurationsec', 1],
      ['maxvideodurationms', 0.001],
      ['maxvideoms', 0.001],
    ],
    fallback: UNCHECKED,
    using: 'no length check before sending (the service refuses what it cannot take, at no cost)',
  },
  maxConcurrentRequests: {
    names: [
      ['maxconcurrentrequests', 1],
      ['concurrentrequests', 1],
      ['maxconcurrency', 1],
      ['concurrency', 1],
      ['maxparallelrequests', 1],
    ],
    fallback: 1,
    using: 'one image request at a time',
  },
  maxConcurrentJobs: {
    names: [
      ['maxconcurrentjobs', 1],
      ['concurrentjobs', 1],
      ['maxjobs', 1],
      ['maxparalleljobs', 1],
    ],
    fallback: 1,
    using: 'one clip job at a time',
  },
  maxQueuedJobs: {
    names: [
      ['maxqueuedjobs', 1],
      ['queuedjobs', 1],
      ['maxqueue', 1],
      ['queuesize', 1],
    ],
    fallback: 1,
    using: 'one queued clip job',
  },
  hourFrames: {
    names: [
      ['hourframes', 1],
      ['framesperhour', 1],
      ['hourlyframes', 1],
      ['hourlyframelimit', 1],
      ['hourlimit', 1],
    ],
    fallback: UNCHECKED,
    using: "the key's hourRemaining from GET /key",
  },
  videoSampleFps: {
    names: [
      ['videosamplefps', 1],
      ['samplefps', 1],
      ['sampledfps', 1],
      ['videofps', 1],
      ['framespersecond', 1],
    ],
    fallback: 30,
    using:
      '30 sampled frames per second of clip for estimates (the clip result gives the real count)',
  },
};

/** How services name the most detections per image (YOLO's max_det, Rekognition's MaxLabels…). */
const DETECTION_LIMIT_NAMES = [
  ['maxdetections', 1],
  ['maxdetectionsperimage', 1],
  ['maxdetectionsperframe', 1],
  ['maxdet', 1],
  ['maxresults', 1],
  ['maxlabels', 1],
  ['maxobjects', 1],
  ['maxboxes', 1],
] as const;

export function readLimits(raw: unknown, notes: Notes): ServiceLimits {
  const obj: Json = isObject(raw) ? raw : {};
  const keys = squashedKeys(obj);
  const notPublished: ServiceLimits['notPublished'] = [];
  const numeric = {} as Record<NumericLimit, number>;
  for (const name of Object.keys(RULES) as NumericLimit[]) {
    const rule = RULES[name];
    const found = numberUnder(obj, keys, rule.names);
    if (found !== null && found > 0) numeric[name] = found;
    else {
      numeric[name] = rule.fallback;
      notPublished.push({ name, using: rule.using });
    }
  }
  const formats = isObject(obj.formats) ? obj.formats : {};
  const imageFormats = formatsOf(obj.imageFormats ?? obj.image_formats ?? formats.image);
  const videoFormats = formatsOf(obj.videoFormats ?? obj.video_formats ?? formats.video);
  if (!imageFormats)
    notPublished.push({
      name: 'imageFormats',
      using: `every format LabelDesk reads (${KNOWN_IMAGE_FORMATS.join(', ')}); the service refuses the others`,
    });
  if (!videoFormats)
    notPublished.push({
      name: 'videoFormats',
      using: `every format LabelDesk reads (${KNOWN_VIDEO_FORMATS.join(', ')}); the service refuses the others`,
    });
  const poll = pollBoundsOf(obj, keys);
  if (!poll)
    notPublished.push({ name: 'pollIntervalMs', using: '1,000 to 10,000 ms between polls' });
  for (const n of notPublished) notes.notPublished(`catalog.limits.${n.name}`, n.using);
  const sessionFrames = looseNumberOf(obj.sessionFrames);
  const trialKeyFrames = looseNumberOf(obj.trialKeyFrames);
  const maxDetections = numberUnder(obj, keys, DETECTION_LIMIT_NAMES);
  return {
    ...numeric,
    maxConcurrentRequests: Math.max(1, Math.floor(numeric.maxConcurrentRequests)),
    maxConcurrentJobs: Math.max(1, Math.floor(numeric.maxConcurrentJobs)),
    imageFormats: imageFormats ?? KNOWN_IMAGE_FORMATS,
    videoFormats: videoFormats ?? KNOWN_VIDEO_FORMATS,
    ...(sessionFrames !== null ? { sessionFrames } : {}),
    ...(trialKeyFrames !== null ? { trialKeyFrames } : {}),
    ...(maxDetections !== null && maxDetections >= 1
      ? { maxDetections: Math.floor(maxDetections) }
      : {}),
    pollIntervalMs: poll ?? { min: 1000, max: 10_000 },
    notPublished,
  };
}

function numberUnder(
  obj: Json,
  keys: Map<string, string>,
  names: NumericRule['names'],
): number | null {
  for (const [name, factor] of names) {
    const key = keys.get(name);
    const v = key === undefined ? null : looseNumberOf(obj[key]);
    if (v !== null) return v * factor;
  }
  return null;
}

/** `["jpg", "image/PNG", ".webp"]` → `["jpeg", "png", "webp"]`; null when not a list of strings. */
function formatsOf(raw: unknown): string[] | null {
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const out: string[] = [];
  for (const v of raw) {
    if (typeof v !== 'string') return null;
    const name = v.toLowerCase().replace(/^.*\//, '').replace(/^\./, '');
    out.push(
      name === 'jpg' ? 'jpeg' : name === 'tif' ? 'tiff' : name === 'quicktime' ? 'mov' : name,
    );
  }
  return out;
}

function pollBoundsOf(obj: Json, keys: Map<string, string>): { min: number; max: number } | null {
  const p = obj.pollIntervalMs ?? obj.poll_interval_ms;
  if (isObject(p)) {
    const min = looseNumberOf(p.min);
    const max = looseNumberOf(p.max);
    if (min !== null && max !== null && min >= 0 && max >= min) return { min, max };
  }
  const single = looseNumberOf(p);
  const min =
    single ??
    numberUnder(obj, keys, [
      ['minpollintervalms', 1],
      ['pollintervalminms', 1],
    ]);
  const max =
    single ??
    numberUnder(obj, keys, [
      ['maxpollintervalms', 1],
      ['pollintervalmaxms', 1],
    ]);
  if (min !== null && max !== null && min >= 0 && max >= min) return { min, max };
  return null;
}
