/**
 * The exit codes scripts rely on: 0 all done, 1 some files failed, 2 usage errors, 3 stopped for
 * credits (a run budget, a key with few frames, the hourly limit). Null engine throughout.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  lastJson,
  midHourClock,
  runCli,
  type StatusJson,
  type SummaryJson,
} from '../../support/cli-run.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'photos');
  await mkdir(folder);
  await distinctJpegs(folder, 5);
});
afterEach(() => t.remove());

describe('exit code 2: usage errors, before anything is sent', () => {
  it.each([
    ['an unknown option', ['label', '.', '--bogus'], /unknown option '--bogus'/],
    ['--export without --out', ['label', '.', '--export', 'coco', '--yes'], /--export needs --out/],
    [
      'an unknown export format',
      ['label', '.', '--export', 'tiff', '--out', 'x'],
      /--export takes one of/,
    ],
    [
      'a path that does not exist',
      ['label', 'no-such-folder', '--yes'],
      /no-such-folder: no such file or folder/,
    ],
    [
      'an unknown solution',
      ['label', '.', '--solution', 'cars', '--yes'],
      /Unknown solution "cars".*objects, face, hand, body/,
    ],
    [
      'a budget that is not a number',
      ['label', '.', '--budget', 'lots'],
      /expected a whole number/,
    ],
    ['no path at all', ['label'], /missing required argument/],
    [
      'plan with an unknown solution',
      ['plan', '.', '--solution', 'cars'],
      /Unknown solution "cars"/,
    ],
    ['export without --format', ['export', '--out', 'x.json'], /required option '--format/],
    [
      'export in an unknown format',
      ['export', '--format', 'xml', '--out', 'x'],
      /--format takes one of/,
    ],
    [
      'export with a score above 1',
      ['export', '--format', 'csv', '--out', 'x.csv', '--min-score', '2'],
      /--min-score takes a number from 0 to 1/,
    ],
    ['cancelling a job that is not open', ['jobs', '--cancel', 'job-nope'], /No open job job-nope/],
    ['an unknown command', ['labelx'], /unknown command 'labelx'/],
  ])('%s', async (_what, args, message) => {
    const r = await runCli(
      args.map((a) => (a === '.' ? folder : a)),
      env,
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('nothing was spent by the refused commands', async () => {
    await runCli(['label', folder, '--solution', 'cars', '--yes'], env);
    const status = await cliJson<StatusJson>(['status'], env);
    const plan = await cliJson<{ toLabel: { frames: number } }>(['plan', folder], env);
    expect(plan.toLabel.frames).toBe(20);
    expect(status.remaining).toBe(100_000);
  });
});

describe('exit codes 0 and 1', () => {
  it('0 when every file is labelled, 1 when some failed (and they are named)', async () => {
    const ok = await runCli(['label', folder, '--yes'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^Labelled 5 · reused 0 · failed 0 .* frames spent 20$/m);

    await writeFile(join(folder, 'broken.png'), 'not a png');
    const some = await runCli(['label', folder, '--yes'], env);
    expect(some.code).toBe(1);
    expect(some.stdout).toMatch(/^Labelled 0 · reused 5 · failed 1 /m);
    expect(some.stdout).toContain(`${join(folder, 'broken.png')} — `);
  });
});

describe('exit code 3: stopped for credits', () => {
  it('--budget smaller than the estimate labels what fits and leaves the rest waiting', async () => {
    const before = await cliJson<StatusJson>(['status'], env);
    const r = await runCli(['label', folder, '--yes', '--budget', '10', '--json'], env);
    expect(r.code, r.stderr).toBe(3);
    const s = lastJson<SummaryJson>(r.stdout);
    // 4 frames a photo: two fit in 10, three wait.
    expect(s).toMatchObject({
      labelled: 2,
      waitingForCredits: 3,
      stoppedFor: 'run-budget',
      failed: [],
      exitCode: 3,
    });
    expect(s.framesSpent).toBeLessThanOrEqual(10);
    expect(s.framesSpent).toBe(8);
    expect((await cliJson<StatusJson>(['status'], env)).remaining).toBe(before.remaining - 8);

    const text = await runCli(['label', folder, '--yes', '--budget', '4'], env);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/Labelled 1 · reused 2 .* waiting for credits 2 · frames spent 4/);
    expect(text.stdout).toContain('Stopped: The budget for this run is spent.');

    // Without a budget the rest is labelled, and the earlier ones are reused.
    const rest = await runCli(['label', folder, '--yes', '--json'], env);
    expect(rest.code).toBe(0);
    expect(lastJson<SummaryJson>(rest.stdout)).toMatchObject({
      labelled: 2,
      reused: 3,
      framesSpent: 8,
    });
  });

  describe('against `labeldesk serve`', () => {
    let serve: ServeProcess | undefined;
    let data: string;
    // Both processes see the same injected clock, ten minutes into an hour.
    let clock: NodeJS.ProcessEnv;
    beforeAll(() => {
      clock = midHourClock();
    });
    beforeEach(() => {
      data = join(t.dir, 'service');
    });
    afterEach(async () => {
      await serve?.stop();
      serve = undefined;
    });

    it('a key with 10 frames: two photos, then waiting for credits', async () => {
      const key = 'ldk_cli_few_frames_01';
      serve = await runServe(['--engine', 'null', '--data', data, '--key', `${key}:10`], clock);
      const withKey = { ...env, ...clock, LABELDESK_API_KEY: key };
      const r = await runCli(['label', folder, '--service', serve.url, '--yes'], withKey);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toMatch(/^Labelled 2 · .* waiting for credits 3 · frames spent 8$/m);
      expect(r.stdout).toContain('Stopped: The key has no frames left for this file.');
      const status = await cliJson<StatusJson>(['status', '--service', serve.url], withKey);
      expect(status).toMatchObject({ audience: 'api_key', remaining: 2 });
      // The key in the environment is used for one run only: without it, status shows no key
      // and a run is refused.
      const none = await runCli(['status', '--service', serve.url, '--json'], env);
      expect(none.code, none.stderr).toBe(0);
      expect(lastJson<StatusJson>(none.stdout)).toMatchObject({ health: 'ok', remaining: null });
      const refused = await runCli(['label', folder, '--service', serve.url, '--yes'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`labeldesk login --service ${serve.url}`);
    });

    it('the hourly limit: one photo this hour, the rest waiting', async () => {
      const key = 'ldk_cli_hour_limit_01';
      serve = await runServe(
        ['--engine', 'null', '--data', data, '--key', key, '--hour-frames', '6'],
        clock,
      );
      const withKey = { ...env, ...clock, LABELDESK_API_KEY: key };
      const r = await runCli(['label', folder, '--service', serve.url, '--yes', '--json'], withKey);
      expect(r.code, r.stderr).toBe(3);
      expect(lastJson<SummaryJson>(r.stdout)).toMatchObject({
        labelled: 1,
        waitingForCredits: 4,
        framesSpent: 4,
        stoppedFor: 'hour',
        exitCode: 3,
      });
      const status = await cliJson<StatusJson>(['status', '--service', serve.url], withKey);
      expect(status.hourRemaining).toBe(2);
      expect(status.remaining).toBeGreaterThan(1000);
      // The plan says it will not fit this hour.
      const plan = await cliJson<{
        fits: boolean;
        fitsThisHour: boolean;
        toLabel: { frames: number };
      }>(['plan', folder, '--service', serve.url], withKey);
      expect(plan).toMatchObject({ fits: true, fitsThisHour: false, toLabel: { frames: 16 } });
    });
  });
});
