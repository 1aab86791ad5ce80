/**
 * The import dialog end to end, on real models and OpenCV's real photo: a COCO file written by
 * another tool (file names only) is imported from the library as a person would; the photo then
 * shows exactly the imported boxes, accepted, and the export dialog writes exactly them. A file
 * whose declared size ignores its EXIF orientation, and a file the library does not have, are
 * listed with their reasons instead of being guessed.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { appPerFile } from '../support/browser-app-fixture.js';
import { readCoco } from '../support/cli-exports.js';
import { orientedJpeg } from '../support/cli-media.js';
import { realMediaDir } from '../support/real-media.js';
import { screenshot } from './browser-app.js';
import { labelFolder, openItem } from './label-folder.js';

const PHOTO = 'fruits.jpg';
let labels: string;
let size: { width: number; height: number };
const BOXES = [
  { label: 'apple', bbox: [12.5, 20.25, 100, 80.5] },
  { label: 'lemon', bbox: [200, 150, 64.75, 50] },
];

const t = appPerFile({
  prefix: 'labeldesk-import-',
  folder: 'photos',
  prepare: async (ws) => {
    await copyFile(join(await realMediaDir(), PHOTO), join(ws.folder, PHOTO));
    // Stored 320×240, shown 240×320 (EXIF orientation 6).
    await orientedJpeg(join(ws.folder, 'turned.jpg'));
    const meta = await sharp(join(ws.folder, PHOTO)).metadata();
    size = { width: meta.width ?? 0, height: meta.height ?? 0 };
    await mkdir(join(ws.dir, 'labels'));
    labels = join(ws.dir, 'labels', 'instances.json');
    await writeFile(
      labels,
      JSON.stringify({
        images: [
          { id: 7, file_name: PHOTO, ...size },
          { id: 8, file_name: 'turned.jpg', width: 320, height: 240 },
          { id: 9, file_name: 'nowhere.jpg', width: 10, height: 10 },
        ],
        annotations: BOXES.map((b, i) => ({
          id: i + 1,
          image_id: 7,
          category_id: i + 1,
          bbox: b.bbox,
        })).concat([{ id: 3, image_id: 8, category_id: 1, bbox: [1, 1, 5, 5] }]),
        categories: BOXES.map((b, i) => ({ id: i + 1, name: b.label })),
      }),
    );
  },
});

describe('the import dialog', () => {
  it('imports a COCO file from the library and lists what it could not import', async () => {
    const { page } = t.app;
    await labelFolder(t.app, t.ws.folder);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import labels' });
    await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'COCO' });
    await dialog.getByRole('textbox', { name: 'Source' }).fill(labels);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const status = dialog.getByRole('status').filter({ hasText: /^Imported/ });
    await status.waitFor({ timeout: 60_000 });
    expect(await status.textContent()).toBe('Imported 2 boxes into 1 file; 2 files not imported.');
    const issues = dialog.getByRole('list', { name: 'Not imported' }).getByRole('listitem');
    await expect
      .poll(() => issues.allTextContents())
      .toEqual([
        expect.stringMatching(
          /^size_mismatch .*turned\.jpg: the labels say 320×240 but the file shows 240×320 \(EXIF orientation 6/,
        ),
        expect.stringMatching(/^unknown_file nowhere\.jpg: no file of the library has this name/),
      ]);
    await screenshot(page, 'import-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 600_000);

  it('the photo then shows exactly the imported boxes, accepted', async () => {
    const { page } = t.app;
    await openItem(page, PHOTO);
    const options = page.getByRole('listbox', { name: 'Boxes' }).getByRole('option');
    await expect.poll(() => options.count(), { timeout: 30_000 }).toBe(2);
    const texts = await options.allTextContents();
    expect(texts.map((t) => /apple|lemon/.exec(t)?.[0]).sort()).toEqual(['apple', 'lemon']);
    for (const t of texts) expect(t).toContain('accepted');
    await screenshot(page, 'import-review');
    await page.getByRole('button', { name: 'Back to library' }).click();
  }, 120_000);

  it('and the export dialog writes exactly them', async () => {
    const { page } = t.app;
    const out = join(t.ws.dir, 'exports', 'after-import.json');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export boxes' });
    await dialog.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'COCO' });
    await dialog.getByRole('textbox', { name: 'Destination' }).fill(out);
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: out }).waitFor({ timeout: 60_000 });
    const boxes = (await readCoco(out)).boxes.filter((b) => b.path.endsWith(`/${PHOTO}`));
    const got = boxes
      .map((b) => [b.label, b.xmin, b.ymin, b.xmax - b.xmin, b.ymax - b.ymin] as const)
      .sort((a, b) => a[0].localeCompare(b[0]));
    expect(got).toHaveLength(2);
    got.forEach((g, i) => {
      const want = BOXES[i] as (typeof BOXES)[0];
      expect(g[0]).toBe(want.label);
      g.slice(1).forEach((v, j) =>
        expect(Math.abs((v as number) - (want.bbox[j] as number))).toBeLessThanOrEqual(0.01),
      );
    });
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 120_000);
});
