/**
 * Issue 16: a service that follows the interface in everything it shows and differs from ours in
 * every unshown part (test/support/alt-service). Images and a clip are labelled through each
 * variant by the real CLI; the stored boxes are exactly the served ones, the frames LabelDesk
 * accounts equal the service's own count, a second run sends nothing, and exports carry the boxes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import { type AltVariant } from '../../support/alt-service/alt-forms.js';
import { expectServedBoxesStored, ledgerFrames } from '../../support/alt-service/alt-library.js';
import { cliEnv, cliHome, lastJson, runCli, type SummaryJson } from '../../support/cli-run.js';
import { clip, jpeg, png } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

let media: { dir: string; remove: () => Promise<void> };
let images: string;
let clips: string;

beforeAll(async () => {
  media = await tempDir('alt-media-');
  images = join(media.dir, 'images');
  clips = join(media.dir, 'clips');
  await mkdir(images);
  await mkdir(clips);
  await writeFile(join(images, 'a.jpg'), await jpeg(320, 240, 1));
  await writeFile(join(images, 'b.jpg'), await jpeg(640, 360, 2));
  await writeFile(join(images, 'c.png'), await png(96, 128));
  await clip(clips, 'walk.mp4', 3, '160x120', 10);
});
afterAll(() => media.remove());

/** Extra flags per variant: c puts x,y at the box centre, which a person sets once per service. */
const FLAGS: Record<AltVariant, string[]> = {
  a: [],
  b: [],
  c: ['--box-origin', 'centre'],
  d: [],
  e: [],
  f: [],
  g: [],
  h: ['--box-origin', 'centre'],
  i: [],
};

// e: a clip result as a flat list of detections, an absolute pollUrl, plain-text errors, a 204.
describe.each(['a', 'b', 'c', 'e'] as const)('labelling through alt service %s', (variant) => {
  let alt: AltService;
  let t: { home: string; dir: string; remove: () => Promise<void> };
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    alt = await startAltService(variant);
    t = await cliHome();
    env = cliEnv(t.home, { LABELDESK_API_KEY: alt.key });
  });
  afterEach(async () => {
    await alt.close();
    await t.remove();
  });

  const label = async (...dirs: string[]) => {
    const r = await runCli(
      ['label', ...dirs, '--service', alt.url, '--yes', '--json', ...FLAGS[variant]],
      env,
    );
    if (!r.stdout.trim()) throw new Error(`label exited ${r.code}: ${r.stderr}`);
    return { ...r, summary: lastJson<SummaryJson>(r.stdout) };
  };

  it('stores exactly the served boxes, accounts the service’s frames, and never pays twice', async () => {
    const first = await label(images);
    expect(first.summary, first.stderr).toMatchObject({ labelled: 3, failed: [], uncertain: [] });
    expect(first.code).toBe(0);
    expect(first.summary.framesSpent).toBe(alt.charged);
    expect(ledgerFrames(t.home)).toBe(alt.charged);
    expect(expectServedBoxesStored(t.home, alt)).toBe(6);

    const clipRun = await label(clips);
    expect(clipRun.summary, clipRun.stderr).toMatchObject({ labelled: 1, failed: [] });
    // 3 s sampled at 2 fps: 6 frames of two boxes each.
    expect(expectServedBoxesStored(t.home, alt)).toBe(6 + 12);
    // c publishes no frame cost: its clip's cost is learnt from GET /key, and still matches.
    expect(ledgerFrames(t.home)).toBe(alt.charged);

    const calls = alt.paidCalls;
    const again = await label(images, clips);
    expect(again.summary).toMatchObject({ labelled: 0, reused: 4, framesSpent: 0 });
    expect(alt.paidCalls).toBe(calls);

    if (variant === 'a') {
      // a publishes no clip length limit: status names it and what is used instead.
      const status = await runCli(['status', '--service', alt.url], env);
      expect(status.stdout).toContain(
        'Limit maxVideoSeconds: not published by the service: using no length check before sending',
      );
    }

    const out = join(t.dir, 'boxes.csv');
    const exported = await runCli(['export', '--format', 'csv', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = (await readFile(out, 'utf8')).trim().split('\n').slice(1);
    expect(rows).toHaveLength(6 + 12);
  }, 120_000);
});
