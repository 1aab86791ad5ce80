/**
 * What scripts read: `status --json`, `plan --json` (which spends nothing) and the `label --json`
 * summary. The embedded service runs the null engine here: the catalog and accounting are the real ones.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  lastJson,
  runCli,
  type StatusJson,
  type SummaryJson,
} from '../../support/cli-run.js';
import { clip } from '../../support/synth-media.js';

interface PlanJson {
  solution: string;
  found: number;
  toLabel: { images: number; clips: number; frames: number };
  /** Files whose cost is unknown until the first is sent (the service does not publish it). */
  costUnknown: number;
  alreadyLabelled: number;
  duplicates: number;
  refused: { path: string; code: string; message: string }[];
  uncertain: unknown[];
  key: { audience: string; remaining: number; hourRemaining: number; expiresAt: string | null };
  fits: boolean;
  fitsThisHour: boolean;
}

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;
let photos: string[];

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'shoot');
  await mkdir(folder);
  photos = await distinctJpegs(folder, 3);
  await copyFile(photos[0] as string, join(folder, 'photo0-copy.jpg'));
  await clip(folder, 'walk.mp4', 2, '160x120', 10);
});
afterEach(() => t.remove());

describe('--json outputs', () => {
  it('status --json: version, health and what is left on the key', async () => {
    const version = (await runCli(['--version'], env)).stdout.trim();
    const status = await cliJson<StatusJson>(['status'], env);
    expect(status).toEqual({
      service: 'embedded',
      version,
      health: 'ok',
      ai: 'off',
      audience: 'api_key',
      remaining: expect.any(Number),
      hourRemaining: expect.any(Number),
      expiresAt: null,
      // Our own service publishes everything in the forms LabelDesk reads: nothing to say.
      notPublished: [],
      understood: [],
      keptUnread: 0,
    });
    expect(status.remaining).toBeGreaterThan(0);
    expect(status.hourRemaining).toBeGreaterThan(0);
    expect(status.hourRemaining).toBeLessThanOrEqual(status.remaining);

    const text = await runCli(['status'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`version ${version}`);
    expect(text.stdout).toContain(`${status.remaining} frames left`);
  });

  it('plan --json counts and prices the folder against the key and spends nothing', async () => {
    const before = await cliJson<StatusJson>(['status'], env);
    const plan = await cliJson<PlanJson>(['plan', folder], env);
    // 3 photos at 4 frames, a 2 s clip sampled at 5 fps at 2 frames each; the copy is free.
    expect(plan).toEqual({
      solution: 'objects',
      found: 5,
      toLabel: { images: 3, clips: 1, frames: 3 * 4 + 10 * 2 },
      costUnknown: 0,
      alreadyLabelled: 0,
      duplicates: 1,
      refused: [],
      uncertain: [],
      key: {
        audience: 'api_key',
        remaining: before.remaining,
        hourRemaining: before.hourRemaining,
        expiresAt: null,
      },
      fits: true,
      fitsThisHour: true,
    });
    expect((await cliJson<StatusJson>(['status'], env)).remaining).toBe(before.remaining);

    // The human form says the same.
    const text = await runCli(['plan', folder], env);
    expect(text.stdout).toContain('5 media found · 0 already labelled · 1 duplicates');
    expect(text.stdout).toContain('3 images and 1 clips, about 32 frames');
    expect(text.stdout).toContain(`The key has ${before.remaining} frames left`);

    // After one photo is labelled, the plan counts it as done and the estimate drops by its price.
    const one = await runCli(['label', photos[1] as string, '--yes', '--json'], env);
    expect(one.code, one.stderr).toBe(0);
    const status = await cliJson<StatusJson>(['status'], env);
    expect(status.remaining).toBe(before.remaining - 4);
    const next = await cliJson<PlanJson>(['plan', folder], env);
    expect(next).toMatchObject({
      found: 5,
      alreadyLabelled: 1,
      toLabel: { images: 2, clips: 1, frames: 28 },
      key: { remaining: status.remaining, hourRemaining: status.hourRemaining },
    });
  });

  it('label --json prints one summary document and nothing else on stdout', async () => {
    const run = await runCli(['label', folder, '--yes', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const summary = lastJson<SummaryJson>(run.stdout);
    expect(summary).toEqual({
      solution: 'objects',
      labelled: 4,
      reused: 1,
      failed: [],
      uncertain: [],
      waitingForCredits: 0,
      framesSpent: 32,
      stoppedFor: null,
      interrupted: false,
      clipsOpen: 0,
      notSent: 0,
      diskFull: false,
      exitCode: 0,
    });
    // No progress lines either: stderr stays quiet for scripts.
    expect(run.stderr).not.toMatch(/progress|Labelled/);
  });
});
