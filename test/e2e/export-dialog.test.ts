/**
 * The export dialog end to end, on real models and OpenCV's real media: COCO, YOLO (with the clip's
 * analysed frames as images) and MOT, parsed back the way a training script reads them and checked
 * against the files' true pixel sizes; an existing target is refused until Replace is ticked; Only
 * accepted exports exactly the box a person accepted in the video review.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appPerFile } from '../support/browser-app-fixture.js';
import { readCoco, readMot, readYolo, type ReadBox } from '../support/cli-exports.js';
import { realMediaFolder } from '../support/cli-media.js';
import { screenshot } from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';

let accepted: string;

const t = appPerFile({
  prefix: 'labeldesk-export-',
  folder: 'site',
  prepare: (ws) => realMediaFolder(ws.folder),
});

const out = (name: string) => join(t.ws.dir, 'exports', name);

async function trueSize(file: string): Promise<{ width: number; height: number }> {
  const m = await sharp(file).metadata();
  return { width: m.width ?? 0, height: m.height ?? 0 };
}

function inside(b: ReadBox): boolean {
  const eps = 1e-6;
  return b.xmin >= -eps && b.ymin >= -eps && b.xmax <= b.width + eps && b.ymax <= b.height + eps;
}

interface Options {
  format: string;
  destination: string;
  onlyAccepted?: boolean;
  clipFrames?: boolean;
  replace?: boolean;
}

/** Fills the dialog and presses Export; resolves with the status text or the error shown. */
async function exportWith(o: Options): Promise<string> {
  const { page } = t.app;
  const dialog = page.getByRole('dialog', { name: 'Export boxes' });
  if (!(await dialog.isVisible())) {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
  }
  await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: o.format });
  await dialog.getByRole('textbox', { name: 'Destination' }).fill(o.destination);
  await setChecked(
    dialog.getByRole('checkbox', { name: 'Only accepted', exact: true }),
    o.onlyAccepted,
  );
  if (o.clipFrames !== undefined) {
    await setChecked(dialog.getByRole('checkbox', { name: /Clips as frames/ }), o.clipFrames);
  }
  await setChecked(dialog.getByRole('checkbox', { name: /Replace/ }), o.replace);
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const done = dialog.getByRole('status').filter({ hasText: o.destination });
  const refused = dialog.getByRole('alert');
  await done.or(refused).first().waitFor({ timeout: 120_000 });
  return (await refused.isVisible())
    ? `refused: ${await refused.textContent()}`
    : ((await done.textContent()) ?? '');
}

async function setChecked(box: Locator, on = false): Promise<void> {
  if ((await box.isChecked()) !== on) await box.setChecked(on);
}

describe('the export dialog', () => {
  it('labels the folder and accepts one box of the clip in the video review', async () => {
    const { page } = t.app;
    await labelFolder(t.app, t.ws.folder);
    await openItem(page, 'vtest-4s.avi');
    await page.getByRole('button', { name: 'Next detection' }).click({ timeout: 120_000 });
    const first = page.getByRole('listbox', { name: 'Boxes' }).getByRole('option').first();
    await first.click();
    // "label 0.64", or a conflict's one row "label / other · conflict" (its first class selected).
    const name = (await first.getAttribute('aria-label')) ?? '';
    accepted = name.endsWith(' · conflict')
      ? (name.split(' / ')[0] ?? '')
      : name.split(' ').slice(0, -1).join(' ');
    await page.keyboard.press('a');
    await expect.poll(() => first.textContent(), { timeout: 10_000 }).toContain('accepted');
    await page.getByRole('button', { name: 'Back to library' }).click();
  }, 600_000);

  it('exports COCO whose images carry their true pixel sizes, and refuses to overwrite it', async () => {
    const file = out('coco.json');
    const status = await exportWith({ format: 'COCO', destination: file });
    expect(status).toMatch(/^Exported [\d,]+ boxes from [\d,]+ files to /);
    expect(status).toMatch(/1 skipped/); // the clip: COCO holds images unless clips become frames
    const { doc, boxes } = await readCoco(file);
    expect(doc.images.length).toBeGreaterThanOrEqual(3);
    for (const image of doc.images) {
      expect({ width: image.width, height: image.height }).toEqual(
        await trueSize(image.absolute_path),
      );
    }
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes.filter((b) => !inside(b))).toEqual([]);
    await t.app.page
      .getByRole('dialog', { name: 'Export boxes' })
      .getByRole('progressbar', { name: 'Export progress' })
      .waitFor();
    await screenshot(t.app.page, 'export-dialog');

    expect(await exportWith({ format: 'COCO', destination: file })).toMatch(
      /^refused: .*already exists.*target_exists/,
    );
    expect(await exportWith({ format: 'COCO', destination: file, replace: true })).toMatch(
      /^Exported/,
    );
  }, 180_000);

  it('exports YOLO with the clip as frames, normalised boxes over real frame images', async () => {
    const dir = out('yolo');
    const status = await exportWith({ format: 'YOLO', destination: dir, clipFrames: true });
    expect(status).toMatch(/^Exported .*clip frames in /);
    const { boxes, files } = await readYolo(dir);
    const frames = [...files.values()].filter((p) => /frame-\d{6}\.jpg$/.test(p));
    expect(frames.length).toBeGreaterThan(0);
    expect(await trueSize(frames[0]!)).toEqual({ width: 768, height: 576 });
    expect(boxes.filter((b) => !inside(b))).toEqual([]);
    expect(boxes.some((b) => frames.includes(b.path) && b.label === 'person')).toBe(true);
  }, 180_000);

  it('exports MOT with classes and track ids in the clip’s pixels', async () => {
    const dir = out('mot');
    expect(await exportWith({ format: 'MOT', destination: dir })).toMatch(/^Exported/);
    const boxes = await readMot(dir);
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) {
      expect({ width: b.width, height: b.height }).toEqual({ width: 768, height: 576 });
      expect(b.frame).toBeGreaterThanOrEqual(1);
      // A box the tracker left in no track (seen too briefly) is -1, as MOT marks such a detection.
      expect(b.track === -1 || (b.track ?? 0) >= 1).toBe(true);
    }
    expect(boxes.filter((b) => (b.track ?? 0) >= 1).length).toBeGreaterThan(boxes.length / 2);
    expect(boxes.filter((b) => !inside(b))).toEqual([]);
    expect(new Set(boxes.map((b) => b.label))).toContain('person');
  }, 180_000);

  it('with Only accepted, exports exactly the box accepted in the review', async () => {
    const mot = await readMot(
      await exportWith({
        format: 'MOT',
        destination: out('mot-accepted'),
        onlyAccepted: true,
      }).then(() => out('mot-accepted')),
    );
    expect(mot.map((b) => b.label)).toEqual([accepted]);
    const file = out('coco-accepted.json');
    const status = await exportWith({
      format: 'COCO',
      destination: file,
      onlyAccepted: true,
      clipFrames: true,
    });
    expect(status).toMatch(/^Exported 1 box from /);
    const { boxes } = await readCoco(file);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]).toMatchObject({ label: accepted, width: 768, height: 576 });
    expect(await trueSize(boxes[0]!.path)).toEqual({ width: 768, height: 576 });
  }, 180_000);
});
