/**
 * Issue 16 §2 against the alternative test service's variant c, which publishes no frame cost:
 * the CLI learns the image cost (from the answer's `credits.spent`) and the clip frame cost (from
 * GET /key before and after the job), keeps them, and from then on plans and keeps budgets with
 * them. LabelDesk's ledger equals the service's own count in every run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../electron/shared/contract/index.js';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import { ledgerFrames } from '../../support/alt-service/alt-library.js';
import {
  cliEnv,
  cliHome,
  lastJson,
  midHourClock,
  runCli,
  type SummaryJson,
} from '../../support/cli-run.js';
import { clip, jpeg } from '../../support/synth-media.js';

const IMAGE_COST = 2; // variant c charges 2 per image and 1 per analysed clip frame
const FRAME_COST = 1;

let alt: AltService;
let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let images: string;

beforeEach(async () => {
  alt = await startAltService('c');
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_API_KEY: alt.key });
  images = join(t.dir, 'images');
  await mkdir(images);
  for (let i = 0; i < 4; i++)
    await writeFile(join(images, `p${i}.jpg`), await jpeg(200 + i, 150, i + 1));
});
afterEach(async () => {
  await alt.close();
  await t.remove();
});

const label = async (args: string[]) => {
  const r = await runCli(
    ['label', ...args, '--service', alt.url, '--box-origin', 'centre', '--yes', '--json'],
    env,
  );
  if (!r.stdout.trim()) throw new Error(`label exited ${r.code}: ${r.stderr}`);
  return { ...r, summary: lastJson<SummaryJson>(r.stdout) };
};
const plan = async (dir: string) =>
  lastJson<{ toLabel: { frames: number }; costUnknown: number }>(
    (await runCli(['plan', dir, '--service', alt.url, '--json'], env)).stdout,
  );

describe('alt service c: costs not published', () => {
  it('learns the image and clip frame costs; plans use them; the ledger equals the service', async () => {
    expect(await plan(images)).toMatchObject({ costUnknown: 4, toLabel: { frames: 0 } });
    const first = await label([images]);
    expect(first.summary, first.stderr).toMatchObject({ labelled: 4, failed: [] });
    expect(first.stderr).toContain(
      `Learnt from the service's count: ${IMAGE_COST} frames per image`,
    );
    expect(first.summary.framesSpent).toBe(4 * IMAGE_COST);
    expect(ledgerFrames(t.home)).toBe(alt.charged);

    const clips = join(t.dir, 'clips');
    await mkdir(clips);
    await clip(clips, 'walk.mp4', 3, '160x120', 10);
    expect(await plan(clips)).toMatchObject({ costUnknown: 1 });
    const clipRun = await label([clips]);
    expect(clipRun.summary, clipRun.stderr).toMatchObject({ labelled: 1, failed: [] });
    expect(ledgerFrames(t.home)).toBe(alt.charged);
    expect(clipRun.summary.framesSpent).toBe(alt.charged - 4 * IMAGE_COST);

    await clip(clips, 'walk2.mp4', 2, '160x120', 10);
    // 2 s sampled at 2 fps: 4 frames at the learnt cost.
    expect(await plan(clips)).toMatchObject({
      costUnknown: 0,
      toLabel: { frames: 4 * FRAME_COST },
    });

    const doctor = await runCli(['doctor', '--service', alt.url, '--json'], env);
    expect(doctor.code, doctor.stderr).toBe(0);
    const report = lastJson<CheckReport>(doctor.stdout);
    expect(report.parts).toContainEqual({
      part: 'solutions[objects].frameCost',
      verdict: 'not-published',
      text: `not published: using ${IMAGE_COST} frames per image (learnt from the service's count), ${FRAME_COST} frame per clip frame (learnt from the service's count)`,
    });
  }, 120_000);

  it('--budget holds once the cost is known: 5 frames buy two images of 2 (exit 3)', async () => {
    const r = await label([images, '--budget', '5']);
    expect(r.code).toBe(3);
    expect(r.summary).toMatchObject({
      labelled: 2,
      framesSpent: 2 * IMAGE_COST,
      stoppedFor: 'run-budget',
    });
    expect(alt.charged).toBe(2 * IMAGE_COST);
    expect(ledgerFrames(t.home)).toBe(alt.charged);
  }, 60_000);

  it('--hour-budget holds too: 3 frames this hour buy one image', async () => {
    // Ten minutes into the clock hour: a run near its end would wait for the next hour.
    env = { ...env, ...midHourClock() };
    const r = await label([images, '--hour-budget', '3']);
    expect(r.summary).toMatchObject({ labelled: 1, framesSpent: IMAGE_COST });
    expect(alt.charged).toBe(IMAGE_COST);
    expect(ledgerFrames(t.home)).toBe(alt.charged);
  }, 60_000);
});
