/**
 * `labeldesk label --watch`: keeps running and labels files as they arrive — only once they are
 * completely written — and only inside the folders it was given; Ctrl-C ends it with exit code 130.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCsv } from '../../support/cli-exports.js';
import { distinctJpegs, writeSlowly } from '../../support/cli-media.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  runCli,
  startCli,
  until,
  type CliProcess,
  type StatusJson,
} from '../../support/cli-run.js';
import { clip, jpeg } from '../../support/synth-media.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let watched: string;
let watch: CliProcess | undefined;

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  watched = join(t.dir, 'incoming');
  await mkdir(watched);
});
afterEach(async () => {
  if (watch && watch.child.exitCode === null && watch.child.signalCode === null) {
    watch.child.kill('SIGKILL');
    await watch.exited;
  }
  watch = undefined;
  await t.remove();
});

/** The summary lines `label` printed (one for the first pass, one per batch after). */
const summaries = (p: CliProcess) => p.stdout().match(/^Labelled .*$/gm) ?? [];

/** The labelled boxes of `file` in a CSV export (the export itself is the proof it was labelled). */
async function exportedRows(file: string) {
  const out = join(t.dir, `check-${Date.now()}.csv`);
  const r = await runCli(['export', '--format', 'csv', '--out', out], env);
  if (r.code !== 0) throw new Error(r.stderr);
  return (await readCsv(out)).filter((row) => row.path === file);
}

describe('labeldesk label --watch', () => {
  it('labels a file copied in slowly only once it is complete, then exits 130 on Ctrl-C', async () => {
    // A clip makes the first pass last a moment (its job is polled): the copy below starts after
    // the first scan and goes on while that pass runs and while the watch starts.
    await clip(watched, 'first.mp4', 1, '96x72', 10);
    watch = startCli(['label', watched, '--watch', '--yes'], env);
    await watch.waitForOutput(/^To label with objects/m, { stream: 'stderr' });

    // A 640×480 JPEG written in 16 pieces 150 ms apart: each piece arrives before the file could
    // look finished, so a watcher that took it early would send a truncated JPEG (and fail it).
    const bytes = await jpeg(640, 480, 2);
    const file = join(watched, 'camera-0001.jpg');
    await writeSlowly(file, bytes, 16, 150);
    // The first pass: the clip, 1 s at 5 fps, 2 frames each.
    await watch.waitForOutput(/^Labelled 1 · reused 0 · failed 0 .*frames spent 10$/m);

    await watch.waitForOutput(/^Labelled 1 · reused 0 · failed 0 · .* frames spent 4$/m, {
      timeoutMs: 20_000,
    });
    expect(summaries(watch)).toHaveLength(2);
    expect(watch.stdout()).not.toMatch(/failed [1-9]/);
    expect(watch.stderr()).not.toMatch(/^failed /m);
    const rows = await exportedRows(file);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ width: 640, height: 480 });

    watch.child.kill('SIGINT');
    const ended = await watch.exited;
    expect(ended).toEqual({ code: 130, signal: null });
    // The key was charged once for the clip and once for the photo.
    expect((await cliJson<StatusJson>(['status'], env)).remaining).toBe(100_000 - 10 - 4);
  }, 60_000);

  it('picks up files that arrive during the first pass, and only in the folders it was given', async () => {
    // Another library folder, labelled earlier: the watch must not spend on it.
    const other = join(t.dir, 'archive');
    await mkdir(other);
    await distinctJpegs(other, 1, 'old', 20);
    expect((await runCli(['label', other, '--yes'], env)).code).toBe(0);

    // Enough photos that the first pass takes a moment; one more lands as soon as it starts.
    await distinctJpegs(watched, 6);
    watch = startCli(['label', watched, '--watch', '--yes'], env);
    await watch.waitForOutput(/^To label with objects/m, { stream: 'stderr' });
    const late = join(watched, 'late.jpg');
    await writeFile(late, await jpeg(200, 150, 7));
    await watch.waitForOutput(/^Labelled 6 · /m);

    // Outside the watched folder: ignored. Inside: labelled. The file outside is written first:
    // a watcher that wrongly watched its folder would see it first, and label it in the batch of
    // later.jpg or before (no fixed wait: the batches' own count is the proof).
    const notMine = await jpeg(216, 150, 9);
    const later = await jpeg(208, 150, 8);
    await writeFile(join(other, 'not-mine.jpg'), notMine);
    await writeFile(join(watched, 'later.jpg'), later);

    const labelled = () =>
      summaries(watch!).reduce((n, line) => n + Number(/^Labelled (\d+)/.exec(line)?.[1] ?? 0), 0);
    // The first pass's 6, late.jpg and later.jpg.
    await until('the late files to be labelled', () => labelled() >= 8);
    const [a, b] = await Promise.all([
      exportedRows(late),
      exportedRows(join(watched, 'later.jpg')),
    ]);
    expect(a.length > 0 && b.length > 0).toBe(true);
    expect(labelled()).toBe(8);
    watch.child.kill('SIGINT');
    expect((await watch.exited).code).toBe(130);

    const plan = await cliJson<{ alreadyLabelled: number; toLabel: { images: number } }>(
      ['plan', other],
      env,
    );
    expect(plan).toMatchObject({ alreadyLabelled: 1, toLabel: { images: 1 } });
    const spent = 100_000 - (await cliJson<StatusJson>(['status'], env)).remaining;
    // old0, the 6 photos, late and later at 4 frames each; nothing for not-mine.jpg.
    expect(spent).toBe(9 * 4);
  }, 60_000);
});
