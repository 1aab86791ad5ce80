/**
 * Issue 23 §3: never a silent misreading of a box's x,y. Alt service f answers bbox and bboxPx
 * both as `{x,y,w,h}` with every box well inside the picture, so they read alike with x,y as the
 * corner or the centre and nothing decides: the run says "box origin assumed: corner — not
 * confirmed" once, doctor reports the origin undecided and exits 6, and so does the next plan;
 * a person's choice (`--box-origin`) is kept for the service and ends it. Alt service g adds a box
 * at the picture's edge, which rules the centre out: decided by the boxes, said so, exit 0.
 * Alt service h means the centre but is undecidable too: what was read as corners while nobody
 * had said is read again, with no call to the service, once a person confirms the centre.
 * Alt service i means the centre too, and its second answer decides it: the run says so, reads
 * what it held again, and a person who then confirms the corner has the last word.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import { expectServedBoxesStored, storedBoxes } from '../../support/alt-service/alt-library.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { jpeg } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

const ASSUMED = 'box origin assumed: corner — not confirmed';

/** Two images labelled first, a third for the plan and the confirmed run: [path, w, h, seed]. */
const PICTURES: [string, number, number, number][] = [
  ['images/a.jpg', 320, 240, 5],
  ['images/b.jpg', 200, 300, 6],
  ['more/c.jpg', 240, 240, 7],
];

let media: { dir: string; remove: () => Promise<void> };
let images: string;
let more: string;
let alt: AltService | undefined;
let t: { home: string; dir: string; remove: () => Promise<void> } | undefined;

beforeAll(async () => {
  media = await tempDir('box-origin-');
  [images, more] = [join(media.dir, 'images'), join(media.dir, 'more')];
  for (const [name, w, h, seed] of PICTURES) {
    await mkdir(dirname(join(media.dir, name)), { recursive: true });
    await writeFile(join(media.dir, name), await jpeg(w, h, seed));
  }
});
afterAll(() => media.remove());
afterEach(async () => {
  await Promise.all([alt?.close(), t?.remove()]);
  alt = t = undefined;
});

async function setUp(variant: 'f' | 'g' | 'h' | 'i') {
  alt = await startAltService(variant);
  t = await cliHome();
  const env = cliEnv(t.home, { LABELDESK_API_KEY: alt.key });
  const url = alt.url;
  const cli = (args: string[]) => runCli([...args, '--service', url], env);
  return { alt, home: t.home, cli };
}

const times = (text: string, part: string) => text.split(part).length - 1;

describe('the box origin of a service that does not say', () => {
  it('undecided: said once by the run and the plan, doctor exits 6, until a person chooses', async () => {
    const s = await setUp('f');
    const first = await s.cli(['label', images, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(times(first.stderr, ASSUMED)).toBe(1);
    // Read as corners, which is what f serves: the boxes are right, but only by luck.
    expect(expectServedBoxesStored(s.home, s.alt)).toBe(4);

    const doctor = await s.cli(['doctor']);
    expect(doctor.code, doctor.stdout).toBe(6);
    expect(doctor.stdout).toMatch(/box origin: undecided: bbox and bboxPx read alike/);

    const plan = await s.cli(['plan', more]);
    expect(times(plan.stdout + plan.stderr, ASSUMED)).toBe(1);

    const confirmed = await s.cli(['label', more, '--yes', '--box-origin', 'corner']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).not.toContain(ASSUMED);
    const after = await s.cli(['doctor']);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).not.toContain('box origin');
  }, 120_000);

  it('decided by a box that would lie outside the picture read the other way', async () => {
    const s = await setUp('g');
    const run = await s.cli(['label', images, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain(ASSUMED);
    expect(expectServedBoxesStored(s.home, s.alt)).toBe(6);
    const doctor = await s.cli(['doctor', '--spend', join(more, 'c.jpg')]);
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toContain(
      'understood as x,y = the top-left corner, decided by the boxes (with x,y as the centre, a box would lie outside the picture)',
    );
  }, 120_000);

  it('read again with the centre once a person confirms it, without a call to the service', async () => {
    const s = await setUp('h');
    const first = await s.cli(['label', images, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(times(first.stderr, ASSUMED)).toBe(1);
    // Read as corners while nobody had said: every box lies half its size right and down.
    const shifted = storedBoxes(s.home);
    expect(shifted).toHaveLength(4);
    expect(() => expectServedBoxesStored(s.home, s.alt)).toThrow();
    const sent = s.alt.paidCalls;

    const confirmed = await s.cli(['label', more, '--yes', '--box-origin', 'centre']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).toContain(
      'Read the boxes of 2 file(s) again with the confirmed box origin',
    );
    // The first two images were not sent again (only the third was), and every box is as served.
    expect(s.alt.paidCalls).toBe(sent + 1);
    expect(expectServedBoxesStored(s.home, s.alt)).toBe(6);
    const again = await s.cli(['label', images, '--yes']);
    expect(again.stderr).not.toContain('Read the boxes of');
  }, 120_000);

  it('decided by a later answer: said, the held answers read again, a person has the last word', async () => {
    const s = await setUp('i');
    const six = join(media.dir, 'six');
    await mkdir(six, { recursive: true });
    for (let i = 0; i < 6; i++)
      await writeFile(join(six, `p${i}.jpg`), await jpeg(240 + 16 * i, 200, 30 + i));
    const run = await s.cli(['label', six, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(times(run.stderr, ASSUMED)).toBe(1);
    // Which evidence decided, said by the run; every answer it held read again with it.
    expect(run.stderr).toMatch(
      /Read the boxes of \d file\(s\) again with the box origin their service's boxes decided: x,y = the centre, decided by the boxes \(with x,y as the top-left corner, a box would lie outside the picture\)/,
    );
    expect(s.alt.paidCalls).toBe(6);
    expect(expectServedBoxesStored(s.home, s.alt)).toBe(13);

    // A person says the corner: the five answers held and read as the boxes decided are read
    // back with x,y as each box's corner (the deciding answer, which rules the corner out, stays).
    const corner = await s.cli(['label', six, '--yes', '--box-origin', 'corner']);
    expect(corner.code, corner.stderr).toBe(0);
    expect(corner.stderr).toContain(
      'Read the boxes of 5 file(s) again with the confirmed box origin',
    );
    expect(s.alt.paidCalls).toBe(6);
    const stored = storedBoxes(s.home);
    expect(stored).toHaveLength(13);
    for (const [hash, served] of s.alt.served) {
      const truth = [...(served.boxes ?? [])].sort((a, b) => a.x - b.x);
      // The deciding answer was read with the centre it proved; the others as the person said.
      const shift = truth.length === 3 ? 0 : 0.5;
      const mine = stored.filter((b) => b.hash === hash);
      expect(mine.map((b) => b.x)).toHaveLength(truth.length);
      mine.forEach((b, i) => expect(b.x).toBeCloseTo(truth[i]!.x + shift * truth[i]!.w, 6));
    }
  }, 120_000);
});
