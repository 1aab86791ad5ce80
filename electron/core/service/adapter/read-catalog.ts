/**
 * GET /catalog. Required: `solutions[].id` (the interface names it); everything else is read in
 * any recognised form, or falls back with a note.
 */
import {
  MEDIA_KINDS,
  type Catalog,
  type CatalogSolution,
  type FrameCost,
  type MediaKind,
  type SdkEntry,
} from './adapter-types.js';
import { Notes, type Problems } from './notes.js';
import { readLimits } from './read-limits.js';
import {
  firstPresent,
  isObject,
  looseNumberOf,
  numberByName,
  squashedKeys,
  stringOf,
  textOf,
  type Json,
} from './read-values.js';

export function readCatalog(raw: unknown, problems: Problems): Catalog | null {
  if (!isObject(raw)) {
    problems.add('catalog', 'expected a JSON object');
    return null;
  }
  const notes = new Notes();
  if (!Array.isArray(raw.solutions)) {
    problems.add(
      'catalog.solutions',
      raw.solutions === undefined ? 'required (the interface names it)' : 'expected a list',
    );
    return null;
  }
  const solutions: CatalogSolution[] = [];
  raw.solutions.forEach((s: unknown, i) => {
    const solution = readSolution(s, i, notes, problems);
    if (solution) solutions.push(solution);
  });
  if (problems.any) return null;
  const version = textOf(raw.version);
  if (version === null) notes.notPublished('catalog.version', '"unknown"');
  return {
    version: version ?? 'unknown',
    boxOrigin: boxOriginOf(raw),
    aiStatus: textOf(raw.aiStatus),
    limits: readLimits(raw.limits, notes),
    sdk: readSdk(raw.sdk),
    solutions,
    understanding: notes.list,
  };
}

const ORIGIN_WORDS: Record<string, 'corner' | 'centre'> = {
  corner: 'corner',
  topleft: 'corner',
  'top-left': 'corner',
  xywh: 'corner',
  centre: 'centre',
  center: 'centre',
  cxcywh: 'centre',
};

/** What the catalog says x,y of a box is, when it says (`boxOrigin: "corner"`, `bbox_origin`…). */
function boxOriginOf(raw: Json): 'corner' | 'centre' | null {
  const keys = squashedKeys(raw);
  for (const name of ['boxorigin', 'bboxorigin', 'bboxformat']) {
    const key = keys.get(name);
    const word = key === undefined ? null : stringOf(raw[key]);
    const origin =
      word === null ? undefined : ORIGIN_WORDS[word.toLowerCase().replace(/[_\s]/g, '')];
    if (origin) return origin;
  }
  return null;
}

function readSolution(
  raw: unknown,
  i: number,
  notes: Notes,
  problems: Problems,
): CatalogSolution | null {
  const at = `catalog.solutions[${i}]`;
  if (!isObject(raw)) {
    problems.add(at, 'expected an object');
    return null;
  }
  const id = textOf(raw.id);
  if (id === null || id === '') {
    problems.add(`${at}.id`, 'required (the interface names it)');
    return null;
  }
  const name = stringOf(raw.name) ?? stringOf(raw.title);
  const description = stringOf(raw.description);
  return {
    id,
    ...(name !== null ? { name } : {}),
    ...(description !== null ? { description } : {}),
    media: mediaOf(raw, `catalog.solutions[${id}]`, notes),
    ...classesOf(raw.classes ?? raw.labels, `catalog.solutions[${id}]`, notes),
    frameCost: frameCostOf(raw, `catalog.solutions[${id}]`, notes),
  };
}

function mediaOf(raw: Json, at: string, notes: Notes): MediaKind[] {
  const given = raw.media ?? raw.mediaTypes ?? raw.inputs;
  if (Array.isArray(given)) {
    // A medium we cannot send (a future "audio") is ignored rather than failing the catalog.
    const kinds = given
      .map((m) => (typeof m === 'string' ? m.toLowerCase() : ''))
      .map((m) => (m === 'images' ? 'image' : m === 'videos' || m === 'clip' ? 'video' : m))
      .filter((m): m is MediaKind => (MEDIA_KINDS as readonly string[]).includes(m));
    return [...new Set(kinds)];
  }
  notes.notPublished(
    `${at}.media`,
    'both images and clips (the service refuses what it does not take)',
  );
  return ['image', 'video'];
}

function classesOf(
  raw: unknown,
  at: string,
  notes: Notes,
): Pick<CatalogSolution, 'classes' | 'classIds'> {
  if (!Array.isArray(raw)) {
    notes.notPublished(`${at}.classes`, 'no class list (labels come from the answers)');
    return { classes: [] };
  }
  if (raw.every((c) => typeof c === 'string')) return { classes: raw as string[] };
  const classes: string[] = [];
  const classIds: number[] = [];
  raw.forEach((c: unknown, i) => {
    const o = isObject(c) ? c : {};
    const label = stringOf(o.name) ?? stringOf(o.label) ?? (typeof c === 'string' ? c : null);
    const id = looseNumberOf(o.id ?? o.classId ?? o.index);
    classes.push(label ?? `class ${id ?? i}`);
    classIds.push(id ?? i);
  });
  notes.understoodAs(`${at}.classes`, '{id, name} objects');
  return { classes, classIds };
}

const IMAGE_COST = [
  'image',
  'perimage',
  'imagecost',
  'imageframes',
  'costperimage',
  'framesperimage',
];
const FRAME_COST = [
  'videoframe',
  'pervideoframe',
  'perframe',
  'frame',
  'videoframecost',
  'costperframe',
  'framesperframe',
  'video',
];
const SINGLE_COST = ['framecost', 'cost', 'frames', 'price', 'credits', 'costperframe'];

/** Per image and per video frame; a single number applies to both; `null` = unknown (learnt). */
function frameCostOf(raw: Json, at: string, notes: Notes): FrameCost {
  const given = raw.frameCost;
  if (isObject(given) && typeof given.image === 'number' && typeof given.videoFrame === 'number') {
    return { image: given.image, videoFrame: given.videoFrame };
  }
  const keys = squashedKeys(raw);
  const costObject = firstPresent(
    raw,
    [keys.get('framecost'), keys.get('cost'), keys.get('costs'), keys.get('pricing')].filter(
      (k): k is string => k !== undefined,
    ),
  );
  let image: number | null = null;
  let videoFrame: number | null = null;
  let how = '';
  if (costObject && isObject(costObject.value)) {
    const inner = squashedKeys(costObject.value);
    image = numberByName(costObject.value, inner, IMAGE_COST);
    videoFrame = numberByName(costObject.value, inner, FRAME_COST);
    how = `\`${costObject.name}\` with ${[...inner.values()].join(', ')}`;
  } else if (costObject && looseNumberOf(costObject.value) !== null) {
    image = videoFrame = looseNumberOf(costObject.value);
    how = `one number \`${costObject.name}\` for images and clip frames`;
  } else {
    image = numberByName(
      raw,
      keys,
      IMAGE_COST.filter((n) => n !== 'image'),
    );
    videoFrame = numberByName(
      raw,
      keys,
      FRAME_COST.filter((n) => n !== 'video' && n !== 'frame'),
    );
    const single =
      image === null && videoFrame === null ? numberByName(raw, keys, SINGLE_COST) : null;
    if (single !== null) {
      image = videoFrame = single;
      how = 'one number for images and clip frames';
    } else how = 'cost fields beside the solution';
  }
  if (image !== null && image < 0) image = null;
  if (videoFrame !== null && videoFrame < 0) videoFrame = null;
  if (image !== null || videoFrame !== null) notes.understoodAs(`${at}.frameCost`, how);
  if (image === null)
    notes.notPublished(`${at}.frameCost.image`, 'a cost learnt from the first image sent');
  if (videoFrame === null)
    notes.notPublished(`${at}.frameCost.videoFrame`, 'a cost learnt from the first clip sent');
  return { image, videoFrame };
}

function readSdk(raw: unknown): SdkEntry[] {
  if (!Array.isArray(raw)) return [];
  const out: SdkEntry[] = [];
  for (const e of raw) {
    if (!isObject(e)) continue;
    const lang = stringOf(e.lang) ?? stringOf(e.language);
    const path = stringOf(e.path) ?? stringOf(e.url) ?? (lang ? `/sdk/${lang}` : null);
    if (!lang || !path) continue;
    const filename = stringOf(e.filename);
    out.push({ lang, path, ...(filename ? { filename } : {}) });
  }
  return out;
}
