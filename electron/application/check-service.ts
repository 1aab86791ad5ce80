/**
 * `labeldesk doctor` and the Service screen's "Check service": reads the catalog, health and GET
 * /key (nothing spent) and says, part by part, whether LabelDesk understood it, understood it in
 * an alternative form, or uses a named fallback because the service does not publish it. With a
 * file, that one file is sent too (see check-spend.ts). The CLI and the app only present this.
 */
import type { CheckPart, CheckReport } from '../shared/contract/index.js';
import type { CatalogView } from '../core/runner/service-port.js';
import type { ServiceClient } from '../core/service/service-client.js';
import type {
  CostsPort,
  LedgerPort,
  RawAnswersPort,
  SettingsPort,
} from '../core/store/store-ports.js';
import { readingOf } from '../core/runner/service-reading.js';
import { BOX_ORIGIN_FIELD } from '../core/service/adapter/adapter-types.js';
import { originUndecided } from './box-origin-watch.js';
import { messageOf } from '../shared/error-message.js';
import { spendOneFile } from './check-spend.js';
import type { ServiceConnection } from './service-connection.js';

export interface CheckTarget {
  /** The service's address, for people. */
  service: string;
  /** The identity results, costs and the ledger are stored under. */
  identity: string;
  /** A client with the key, or without one (then GET /key is reported as missing). */
  client: ServiceClient;
  hasKey: boolean;
  store: SettingsPort & CostsPort & RawAnswersPort & LedgerPort;
  /** Whether a box's x,y is read as its corner or its centre (the per-service setting). */
  boxOrigin: 'corner' | 'centre';
  /** Paid answers kept raw because they could not be read. */
  keptAnswers: () => number;
}

/** The target of a connection made for one command (`labeldesk doctor`), named `service`. */
export function connectionTarget(
  store: CheckTarget['store'],
  conn: Pick<ServiceConnection, 'port' | 'client' | 'hasKey'>,
  service: string,
): CheckTarget {
  const identity = conn.port.baseUrl;
  return {
    service,
    identity,
    client: conn.client,
    hasKey: conn.hasKey,
    store,
    boxOrigin: readingOf(store, identity).boxOrigin,
    keptAnswers: () => store.rawAnswers.countUnread(),
  };
}

/** What an adapter note looks like (field, kind, sentence); catalogs without notes have none. */
interface Note {
  field: string;
  kind: 'understood-as' | 'not-published';
  text: string;
}

type CheckedCatalog = CatalogView & {
  understanding?: readonly Note[];
  limits: { notPublished?: readonly { name: string; using: string }[] };
};

export async function checkService(
  target: CheckTarget,
  options: { spendFile?: string; solution?: string; signal?: AbortSignal } = {},
): Promise<CheckReport> {
  const { client, signal } = { client: target.client, signal: options.signal };
  const parts: CheckPart[] = [];
  const [catalog, health, key] = await Promise.allSettled([
    client.catalog(signal) as Promise<CheckedCatalog>,
    client.health(signal),
    target.hasKey ? client.keyStatus(signal) : Promise.reject(new Error('no key')),
  ]);
  if (catalog.status === 'fulfilled') parts.push(...catalogParts(target, catalog.value));
  else parts.push(notUnderstood('catalog', catalog.reason));
  if (health.status === 'fulfilled') {
    const h = health.value;
    parts.push({
      part: 'health',
      verdict: 'understood',
      text: `understood: ${h.status}${h.ai ? `, detection ${h.ai}` : ''}`,
    });
  } else parts.push(notUnderstood('health', health.reason));
  if (!target.hasKey) {
    parts.push({
      part: 'key',
      verdict: 'not-understood',
      text: 'no key for this service, so GET /key was not read (store one with `labeldesk login`)',
    });
  } else if (key.status === 'fulfilled') {
    parts.push({
      part: 'key',
      verdict: 'understood',
      text: `understood: ${key.value.remaining} frames left, ${key.value.hourRemaining} this hour`,
    });
  } else parts.push(notUnderstood('key', key.reason));

  let spend: CheckReport['spend'] = null;
  if (options.spendFile && catalog.status === 'fulfilled' && target.hasKey) {
    const sent = await spendOneFile(target, catalog.value, options.spendFile, options);
    spend = sent.spend;
    parts.push(sent.part);
  }
  if (originUndecided(target.store, target.identity)) parts.push(UNDECIDED_ORIGIN);
  return {
    service: target.service,
    ok: parts.every((p) => p.verdict !== 'not-understood'),
    parts,
    keptAnswers: target.keptAnswers(),
    spend,
    checkedAt: Date.now(),
  };
}

/** Doctor exits 6 on it: boxes would be stored on a guess. */
const UNDECIDED_ORIGIN: CheckPart = {
  part: BOX_ORIGIN_FIELD,
  verdict: 'not-understood',
  text: 'undecided: bbox and bboxPx read alike with x,y as the top-left corner or the centre, and no box decided; read as corners until a person confirms (the Service screen’s preview, or `labeldesk label --box-origin corner|centre`)',
};

function notUnderstood(part: string, reason: unknown): CheckPart {
  return { part, verdict: 'not-understood', text: `not understood: ${messageOf(reason)}` };
}

/** The catalog, each remark the adapter made on it, each unpublished limit, and each solution's costs. */
function catalogParts(target: CheckTarget, catalog: CheckedCatalog): CheckPart[] {
  const notes = catalog.understanding ?? [];
  const parts: CheckPart[] = [
    {
      part: 'catalog',
      verdict: 'understood',
      text: `understood: version ${catalog.version}, ${catalog.solutions.length} solution${catalog.solutions.length === 1 ? '' : 's'}`,
    },
    ...notes
      .filter((n) => !/frameCost/.test(n.field))
      .map((n) => ({ part: n.field, verdict: n.kind, text: n.text })),
  ];
  for (const limit of catalog.limits.notPublished ?? []) {
    const field = `catalog.limits.${limit.name}`;
    if (notes.some((n) => n.field === field)) continue;
    parts.push({
      part: field,
      verdict: 'not-published',
      text: `not published: using ${limit.using}`,
    });
  }
  for (const s of catalog.solutions) {
    const form = notes.find(
      (n) => n.kind === 'understood-as' && n.field === `catalog.solutions[${s.id}].frameCost`,
    );
    parts.push(costPart(target, s, form?.text));
  }
  return parts;
}

const UNITS = { image: 'image', videoFrame: 'clip frame' } as const;

/** A solution's costs: as published, else as learnt, else learnt from the first file sent. */
function costPart(
  target: CheckTarget,
  s: CatalogView['solutions'][number],
  /** "understood as `cost` with perImage, perFrame", when the adapter read another form. */
  form: string | undefined,
): CheckPart {
  const learnt = target.store.costs.get(target.identity, s.id);
  const known: string[] = [];
  const unknown: string[] = [];
  let published = true;
  for (const kind of ['image', 'videoFrame'] as const) {
    const given = s.frameCost[kind];
    const value = given ?? learnt[kind];
    if (given === null) published = false;
    if (value === null) unknown.push(UNITS[kind]);
    else
      known.push(
        `${framesText(value)} per ${UNITS[kind]}${given === null ? " (learnt from the service's count)" : ''}`,
      );
  }
  const pending = unknown.length
    ? [`the ${unknown.join(' and ')} cost learnt from the first file sent`]
    : [];
  const costs = [...known, ...pending].join(', ');
  if (!published) {
    return {
      part: `solutions[${s.id}].frameCost`,
      verdict: 'not-published',
      text: `not published: using ${costs}`,
    };
  }
  return {
    part: `solutions[${s.id}].frameCost`,
    verdict: form ? 'understood-as' : 'understood',
    text: form ? `${form}: ${costs}` : `understood: ${costs}`,
  };
}

/** "1 frame", "4 frames". */
export const framesText = (n: number): string => `${n} frame${n === 1 ? '' : 's'}`;
