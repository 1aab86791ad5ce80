/**
 * The streamed plan of `label --yes`: the first files are planned before the last are read, and
 * the plan it ends with is the one `planPaths` makes of the same folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planPaths } from '../../../electron/application/plan-paths.js';
import { streamPlanPaths } from '../../../electron/application/stream-plan.js';
import { testCatalog } from '../../support/crash-fake-service.js';
import { jpeg } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';
import { storeFixture, type StoreFixture } from '../core/store/store-fixture.js';

let dir: string;
let remove: () => Promise<void>;
let fx: StoreFixture;
const catalog = testCatalog();
const FILES = 300;

beforeEach(async () => {
  ({ dir, remove } = await tempDir('labeldesk-stream-plan-'));
  await mkdir(path.join(dir, 'photos'));
  const base = await jpeg(16, 12, 1);
  for (let i = 0; i < FILES; i++) {
    // Distinct bytes (a trailing byte after EOI), so no file is a duplicate of another.
    await writeFile(
      path.join(dir, 'photos', `p${i}.jpg`),
      Buffer.concat([base, Buffer.from([i % 256, i >> 8])]),
    );
  }
  await writeFile(path.join(dir, 'photos', 'broken.jpg'), 'not a jpeg');
  fx = await storeFixture();
});
afterEach(async () => {
  await fx.done();
  await remove();
});

const request = () => ({
  paths: [path.join(dir, 'photos')],
  solution: 'objects',
  serviceUrl: 'http://fake.invalid',
});

describe('streamPlanPaths', () => {
  it('plans page by page as files are read, ending with the plan planPaths makes', async () => {
    const streamed = await streamPlanPaths(fx.store, catalog, request(), true);
    if (!streamed) throw new Error('expected a streamed plan');
    const sizes: number[] = [];
    for await (const items of streamed.items) if (items.length) sizes.push(items.length);
    // The first page is small, so the run's first upload does not wait for the rest.
    expect(sizes.length).toBeGreaterThan(2);
    expect(sizes[0]).toBeLessThan(FILES / 2);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(FILES);
    expect(streamed.selection.media).toHaveLength(FILES + 1);

    const whole = await planPaths(fx.store, catalog, request());
    const ids = (items: { media: { id: number } }[]) => items.map((i) => i.media.id).sort();
    expect(ids(streamed.plan.items)).toEqual(ids(whole.plan.items));
    expect(streamed.plan.frames).toBe(whole.plan.frames);
    expect(streamed.plan.refused.map((r) => r.code)).toEqual(['undecodable_media']);
  });

  it('does not stream when a person is to confirm the total', async () => {
    expect(await streamPlanPaths(fx.store, catalog, request(), false)).toBeUndefined();
  });
});
