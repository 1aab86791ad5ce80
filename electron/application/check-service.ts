/**
 * `labeldesk doctor` and the Service screen's "Check service": reads the catalog, health and GET
 * /key (nothing spent) and says, part by part, whether LabelDesk understood it, understood it in
 * an alternative form, or uses a named fallback because the service does not publish it. With a
 * file, that one file is sent too (see check-spend.ts). The CLI and the app only present this.
 */
import type { CheckPart, CheckReport } from '../shared/contract/index.js';
import type { CatalogView } from '../core/runner/service-port.js';
import type { ServiceClient } from '../core/service/service-client.js';
import type { LibraryStore } from '../core/store/store-types.js';
import { spendOneFile } from './check-spend.js';

export interface CheckTarget {
  /** The service's address, for people. */
  service: string;
  /** The identity results, costs and the ledger are stored under. */
  identity: string;
  /** A client with the key, or without one (then GET /key is reported as missing). */
  client: ServiceClient;
  hasKey: boolean;
  store: LibraryStore;
  /** Whether a box's x,y is read as its corner or its centre (the per-service setting). */
  boxOrigin: 'corner' | 'centre';
  /** Paid answers kept raw because they could not be read. */
  keptAnswers: () => number;
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

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

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
  return {
    service: target.service,
    ok: parts.every((p) => p.verdict !== 'not-understood'),
    parts,
    keptAnswers: target.keptAnswers(),
    spend,
    checkedAt: Date.now(),
  };
}

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
    const learnt = target.store.costs.get(target.identity, s.id);
    const per = (kind: 'image' | 'videoFrame', unit: string): [boolean, string] => {
      const published = s.frameCost[kind];
      if (published !== null) return [true, `${published} frames per ${unit}`];
      const known = learnt[kind];
      return [
        false,
        known !== null
          ? `${known} frames per ${unit} (learnt from the service's count)`
          : `per ${unit} unknown until the first file (learnt from the service's count)`,
      ];
    };
    const [imagePublished, image] = per('image', 'image');
    const [framePublished, frame] = per('videoFrame', 'clip frame');
    const published = imagePublished && framePublished;
    parts.push({
      part: `solutions[${s.id}].frameCost`,
      verdict: published ? 'understood' : 'not-published',
      text: `${published ? 'understood' : 'not published: using'} ${image}, ${frame}`,
    });
  }
  return parts;
}
