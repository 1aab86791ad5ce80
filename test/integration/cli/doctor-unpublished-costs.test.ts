/**
 * `labeldesk doctor` and `labeldesk label` as a user runs them (child processes) against a service
 * that publishes no frame cost and no `credits`: doctor says so and spends nothing; doctor --spend
 * learns the cost from GET /key, which plan then uses; label asks (--yes) before a run whose cost is
 * unknown, and what it accounts equals the service's own count.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../electron/shared/contract/index.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { clip } from '../../support/synth-media.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { startFixture, TEST_KEY, type Fixture } from '../../support/service-fixture.js';
import { stripPublishedCosts } from '../../support/unpublished-costs.js';

const IMAGE_COST = 4; // objects, as the embedded service charges it
const FRAME_COST = 2; // objects, per analysed clip frame
const GRANT = 100_000;

let t: { home: string; dir: string; remove: () => Promise<void> };
let fixture: Fixture;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
let folder: string;

beforeEach(async () => {
  t = await cliHome();
  fixture = await startFixture({ keys: [{ key: TEST_KEY, frames: GRANT }] });
  proxy = await startFaultProxy(fixture.url);
  stripPublishedCosts(proxy);
  env = cliEnv(t.home, { LABELDESK_API_KEY: TEST_KEY });
  folder = join(t.dir, 'shoot');
  await mkdir(folder);
  await distinctJpegs(folder, 3);
});
afterEach(async () => {
  await proxy.close();
  await fixture.stop();
  await t.remove();
});

const spent = async () =>
  GRANT - ((await fixture.call('/key')).body as { remaining: number }).remaining;
const uploads = () => proxy.forwarded('POST', /^\/infer\//);

describe('labeldesk doctor against a service that does not publish its costs', () => {
  it('reads catalog, health and the key, says the cost is not published, spends nothing, exits 0', async () => {
    const r = await runCli(['doctor', '--service', proxy.url], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/catalog: understood: version /);
    expect(r.stdout).toMatch(
      /solutions\[objects\]\.frameCost: not published: using the image and clip frame cost learnt from the first file sent/,
    );
    expect(r.stdout).toMatch(/key: understood: \d+ frames left/);
    expect(r.stdout).toContain('Everything LabelDesk needs is understood.');
    expect(uploads()).toBe(0);
    expect(await spent()).toBe(0);
  });

  it('--spend sends one file, learns its cost from GET /key, and plan uses it', async () => {
    const photo = join(folder, 'photo0.jpg');
    const r = await runCli(['doctor', '--service', proxy.url, '--spend', photo, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson<CheckReport>(r.stdout);
    expect(report.ok).toBe(true);
    expect(report.spend).toMatchObject({
      file: photo,
      kind: 'image',
      solution: 'objects',
      spent: IMAGE_COST,
      cost: `learnt: ${IMAGE_COST} frames per image (not published by the service)`,
      boxOrigin: 'corner',
    });
    expect(report.spend!.boxes.length).toBeGreaterThan(0);
    expect(uploads()).toBe(1);
    expect(await spent()).toBe(IMAGE_COST);

    const plan = lastJson<{ toLabel: { frames: number }; costUnknown: number }>(
      (await runCli(['plan', folder, '--service', proxy.url, '--json'], env)).stdout,
    );
    expect(plan).toMatchObject({ costUnknown: 0, toLabel: { frames: 3 * IMAGE_COST } });
  });

  it('--spend with a clip learns the cost of a clip frame from GET /key around its job', async () => {
    const walk = await clip(t.dir, 'walk.mp4', 2, '160x120', 10);
    const r = await runCli(['doctor', '--service', proxy.url, '--spend', walk, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson<CheckReport>(r.stdout);
    const paid = await spent();
    expect(report.spend).toMatchObject({ kind: 'video', spent: paid });
    expect(report.spend!.cost).toBe(
      `learnt: ${FRAME_COST} frames per clip frame (not published by the service)`,
    );
    expect(uploads()).toBe(1);
  });

  it('the embedded service (no --service): everything understood as published; --spend confirms the cost', async () => {
    const embedded = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
    const r = await runCli(['doctor', '--spend', join(folder, 'photo1.jpg'), '--json'], embedded);
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson<CheckReport>(r.stdout);
    expect(report.parts.filter((p) => p.verdict !== 'understood')).toEqual([]);
    expect(report.spend).toMatchObject({
      spent: IMAGE_COST,
      cost: `as published (${IMAGE_COST} frames per image)`,
    });
  });

  it('a catalog without solution ids is not understood: exit 6, in words', async () => {
    const broken = await startFaultProxy(fixture.url);
    broken.inject(
      'GET',
      '/catalog',
      { kind: 'rewrite', rewrite: (c: object) => ({ ...c, solutions: [{ name: 'x' }] }) },
      Number.POSITIVE_INFINITY,
    );
    try {
      const r = await runCli(['doctor', '--service', broken.url], env);
      expect(r.code).toBe(6);
      expect(r.stdout).toMatch(/catalog: not understood: .*solutions\[0\]\.id/);
      expect(r.stdout).toMatch(/key: understood/);
      expect(r.stdout).toContain('Not everything LabelDesk needs is understood');
    } finally {
      await broken.close();
    }
  });
});

describe('labeldesk label when the cost is unknown', () => {
  it('without a terminal and without --yes: refused with a sentence, exit 2, nothing sent', async () => {
    const r = await runCli(['label', folder, '--service', proxy.url], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown until the first file is sent .* run again with --yes/);
    expect(uploads()).toBe(0);
  });

  it('with --yes: the plan says so, the run learns the cost, frames spent == the key', async () => {
    const r = await runCli(['label', folder, '--service', proxy.url, '--yes'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/cost unknown until the first file/);
    expect(r.stderr).toMatch(/Learnt from the service's count: 4 frames per image for objects/);
    expect(r.stdout).toMatch(new RegExp(`Labelled 3 .* frames spent ${3 * IMAGE_COST}`));
    expect(await spent()).toBe(3 * IMAGE_COST);
  });
});
