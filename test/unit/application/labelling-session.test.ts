import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LabellingSession,
  spendDecision,
  unknownCostReason,
} from '../../../electron/application/labelling-session.js';
import type { MediaRecord } from '../../../electron/core/store/store-types.js';
import { fakeService, testCatalog } from '../../support/crash-fake-service.js';
import { mediaRow, storeFixture, type StoreFixture } from '../core/store/store-fixture.js';

let fx: StoreFixture;
let root: string;
let folderId: number;
const catalog = testCatalog();
const IMAGE_COST = 4;

beforeEach(async () => {
  fx = await storeFixture();
  root = join(fx.dir, 'photos');
  await mkdir(root);
  folderId = fx.store.folders.add(root).id;
});
afterEach(() => fx.done());

/** Real files on disk: a session checks each one is still the probed file before sending it. */
async function images(names: string[]): Promise<MediaRecord[]> {
  const rows = [];
  for (const name of names) {
    const path = join(root, `${name}.jpg`);
    await writeFile(path, `bytes of ${name}`);
    const st = await stat(path);
    rows.push(mediaRow(folderId, path, { size: st.size, mtimeMs: st.mtimeMs, contentHash: name }));
  }
  return fx.store.media.upsertMany(rows).map((id) => fx.store.media.byId(id)!);
}

describe('LabellingSession', () => {
  it('one budget for every batch: a later batch spends only what earlier ones left', async () => {
    const service = fakeService({ remaining: 1_000 });
    const session = new LabellingSession(fx.store, {
      solution: 'objects',
      budget: 10,
      hourBudget: null,
    });
    const first = session.plan(catalog, service.baseUrl, await images(['a', 'b']));
    const s1 = await session.label({ service, catalog }, first, {});
    expect(s1).toMatchObject({ labelled: 2, framesSpent: 2 * IMAGE_COST, stoppedFor: null });
    expect(session.budgetLeft()).toBe(10 - 2 * IMAGE_COST);

    const second = session.plan(catalog, service.baseUrl, await images(['c', 'd']));
    const s2 = await session.label({ service, catalog }, second, {});
    expect(s2).toMatchObject({ labelled: 0, framesSpent: 0, stoppedFor: 'run-budget' });
    expect(service.calls.inferImage).toHaveLength(2);
    expect(session.budgetLeft()).toBe(2);
  });

  it('without a budget nothing is held back, and the next plan reuses what is labelled', async () => {
    const service = fakeService({ remaining: 1_000 });
    const session = new LabellingSession(fx.store, {
      solution: 'objects',
      budget: null,
      hourBudget: null,
    });
    const media = await images(['a', 'b', 'c']);
    await session.label({ service, catalog }, session.plan(catalog, service.baseUrl, media), {});
    expect(session.budgetLeft()).toBeNull();
    const again = session.plan(catalog, service.baseUrl, media);
    expect(again.items).toHaveLength(0);
    expect(again.reused).toHaveLength(3);
  });
});

describe('spendDecision', () => {
  const known = { frames: 8, costUnknown: 0 };
  const unknown = { frames: 0, costUnknown: 3 };
  const nothing = { frames: 0, costUnknown: 0 };

  it('asks a person who can answer before any spending, known or not', () => {
    expect(spendDecision(known, { accepted: false, canAsk: true })).toBe('ask');
    expect(spendDecision(unknown, { accepted: false, canAsk: true })).toBe('ask');
    expect(spendDecision(nothing, { accepted: false, canAsk: true })).toBe('go');
  });

  it('with nobody to ask, refuses only an unknown cost nobody accepted', () => {
    expect(spendDecision(known, { accepted: false, canAsk: false })).toBe('go');
    expect(spendDecision(unknown, { accepted: false, canAsk: false })).toBe('refuse');
    expect(spendDecision(unknown, { accepted: true, canAsk: false })).toBe('go');
    expect(spendDecision(unknown, { accepted: true, canAsk: true })).toBe('go');
  });

  it('names the solution whose cost is unknown', () => {
    const solution = catalog.solutions[0]!;
    expect(unknownCostReason({ solution })).toMatch(/what objects costs.*first file is sent$/);
  });
});
