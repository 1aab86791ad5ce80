/**
 * `labeldesk label` against a service process behind the fault proxy: budgets and a key with
 * exactly enough frames at full concurrency (nothing sent that the known credits cannot cover),
 * and a malformed catalog (a clear error naming the field, nothing spent).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertFreshBuild,
  keyStatus,
  queryLibrary,
  runCli,
  writeImages,
} from '../../support/crash-cli.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';
import { tempDir } from '../../support/temp-dir.js';

const IMAGES = 40;
const IMAGE_COST = 4; // objects
const BIG_KEY = 'ldk_faults_big_key_0001';
const EXACT_KEY = 'ldk_faults_exact_key_01';
const EXACT_FRAMES = 50; // 12 images and 2 frames over
const CATALOG_KEY = 'ldk_faults_catalog_key1';

let tmp: { dir: string; remove: () => Promise<void> };
let serve: ServeProcess;
let proxy: FaultProxy;
let mediaDir: string;
let homes = 0;

beforeAll(async () => {
  assertFreshBuild(['electron/core/runner', 'electron/core/store', 'electron/core/service']);
  tmp = await tempDir('labeldesk-faults-cli-');
  mediaDir = join(tmp.dir, 'photos');
  await mkdir(mediaDir);
  await writeImages(mediaDir, IMAGES);
  serve = await runServe([
    '--data',
    join(tmp.dir, 'service'),
    '--engine',
    'null',
    '--latency-ms',
    '50',
    '--key',
    `${BIG_KEY}:100000`,
    '--key',
    `${EXACT_KEY}:${EXACT_FRAMES}`,
    '--key',
    `${CATALOG_KEY}:1000`,
  ]);
  proxy = await startFaultProxy(serve.url);
});
afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
  await tmp?.remove();
});

function label(key: string, ...extra: string[]) {
  const home = join(tmp.dir, `home-${homes++}`);
  const from = proxy.requests.length;
  return runCli(['label', mediaDir, '--service', proxy.url, '--yes', '--json', ...extra], {
    LABELDESK_HOME: home,
    LABELDESK_API_KEY: key,
  }).then((r) => ({ ...r, home, requests: proxy.requests.slice(from) }));
}

const imageUploads = (requests: typeof proxy.requests) =>
  requests.filter((r) => r.method === 'POST' && r.path === '/infer/image');

describe('labeldesk label: credits under concurrency', () => {
  it('--budget N --concurrency 4: spends at most N, records the rest waiting for credits, exits 3', async () => {
    const budget = 50;
    const before = (await keyStatus(serve.url, BIG_KEY)).remaining;
    const run = await label(BIG_KEY, '--budget', String(budget), '--concurrency', '4');
    expect(run.code, run.stderr).toBe(3);
    const sent = Math.floor(budget / IMAGE_COST);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({
      labelled: sent,
      framesSpent: sent * IMAGE_COST,
      waitingForCredits: IMAGES - sent,
      stoppedFor: 'run-budget',
      failed: [],
      uncertain: [],
      exitCode: 3,
    });
    const spent = before - (await keyStatus(serve.url, BIG_KEY)).remaining;
    expect(spent).toBe(sent * IMAGE_COST);
    expect(spent).toBeLessThanOrEqual(budget);
    expect(imageUploads(run.requests)).toHaveLength(sent);
    const states = queryLibrary<{ state: string; error_code: string | null; n: number }>(
      run.home,
      'SELECT state, error_code, count(*) AS n FROM submissions GROUP BY state, error_code',
    );
    expect(states).toEqual(
      expect.arrayContaining([
        { state: 'done', error_code: null, n: sent },
        { state: 'waiting-for-credits', error_code: 'credits_run-budget', n: IMAGES - sent },
      ]),
    );
    expect(states).toHaveLength(2);
    expect(
      queryLibrary<{ f: number }>(run.home, 'SELECT sum(frames) AS f FROM frames_ledger')[0]?.f,
    ).toBe(spent);
  });

  it('a key with exactly K frames at full concurrency: no request beyond what the credits cover, so no 402', async () => {
    const run = await label(EXACT_KEY);
    expect(run.code, run.stderr).toBe(3);
    const affordable = Math.floor(EXACT_FRAMES / IMAGE_COST);
    // Every request that left the CLI was one the known credits covered: none was refused.
    expect(imageUploads(run.requests)).toHaveLength(affordable);
    expect(imageUploads(run.requests).every((r) => r.forwarded)).toBe(true);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({
      labelled: affordable,
      waitingForCredits: IMAGES - affordable,
      stoppedFor: 'key',
      failed: [],
    });
    expect(await keyStatus(serve.url, EXACT_KEY)).toMatchObject({
      remaining: EXACT_FRAMES - affordable * IMAGE_COST,
    });
    // Run again: the key cannot pay for one image, so nothing at all is sent.
    const sentBefore = imageUploads(proxy.requests).length;
    const again = await runCli(['label', mediaDir, '--service', proxy.url, '--yes', '--json'], {
      LABELDESK_HOME: run.home,
      LABELDESK_API_KEY: EXACT_KEY,
    });
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ labelled: 0, stoppedFor: 'key' });
    expect(imageUploads(proxy.requests)).toHaveLength(sentBefore);
  });
});

describe('labeldesk label: a catalog in other forms (issue 16)', () => {
  /** Runs `label` through a proxy whose catalog is changed by `breakIt`. */
  async function labelWithCatalog(breakIt: (c: any) => void) {
    // A proxy of its own, so the changed catalog cannot leak into another test.
    const broken = await startFaultProxy(serve.url);
    broken.inject(
      'GET',
      '/catalog',
      {
        kind: 'rewrite',
        rewrite: (c: unknown) => {
          breakIt(c);
          return c;
        },
      },
      100,
    );
    const before = await keyStatus(serve.url, CATALOG_KEY);
    const home = join(tmp.dir, `home-${homes++}`);
    try {
      const run = await runCli(['label', mediaDir, '--service', broken.url, '--yes', '--json'], {
        LABELDESK_HOME: home,
        LABELDESK_API_KEY: CATALOG_KEY,
      });
      const after = await keyStatus(serve.url, CATALOG_KEY);
      return {
        run,
        home,
        paid: before.remaining - after.remaining,
        posts: broken.requests.filter((r) => r.method === 'POST').length,
      };
    } finally {
      await broken.close();
    }
  }

  it('a solution without its id: a clear error naming the field, exit non-zero, nothing spent', async () => {
    const { run, paid, posts } = await labelWithCatalog((c) => delete c.solutions[0].id);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('catalog.solutions[0].id');
    expect(posts).toBe(0);
    expect(paid).toBe(0);
  });

  it.each([
    ['a string where a number belongs', (c: any) => (c.limits.pollIntervalMs.min = 'soon')],
    ['a missing limit', (c: any) => delete c.limits.maxConcurrentRequests],
    ['a solution without its frame cost', (c: any) => delete c.solutions[0].frameCost],
  ])(
    '%s: read with a named fallback, every file labelled, frames accounted as the key paid',
    async (_n, breakIt) => {
      const { run, home, paid, posts } = await labelWithCatalog(breakIt);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout.trim())).toMatchObject({ labelled: IMAGES, failed: [] });
      expect(posts).toBe(IMAGES);
      expect(paid).toBe(IMAGES * IMAGE_COST);
      expect(
        queryLibrary<{ f: number }>(home, 'SELECT sum(frames) AS f FROM frames_ledger')[0]?.f,
      ).toBe(paid);
    },
  );
});
