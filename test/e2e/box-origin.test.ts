/**
 * Issue 23 §3 in the app, as a person meets it: a hosted service (alt service f) whose bbox and
 * bboxPx are both `{x,y,w,h}` with every box well inside the picture, so nothing in its answers
 * says whether x,y is the corner or the centre. "Send this file" draws the boxes, the report says
 * the box origin is undecided, and the Service screen asks the person to confirm on the preview;
 * their confirmation is kept for the service, and the next check is fully understood.
 */
import Database from 'better-sqlite3';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../support/alt-service/alt-service.js';
import { jpeg } from '../support/synth-media.js';
import {
  connectHosted,
  openApp,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';

let app: BrowserApp;
let alt: AltService;
let ws: Workspace;
let photo: string;

beforeAll(async () => {
  ws = await workspace('labeldesk-e2e-origin-');
  photo = join(ws.folder, 'street.jpg');
  await writeFile(photo, await jpeg(640, 480, 11));
  alt = await startAltService('f');
  app = await startBrowserApp({ LABELDESK_HOME: join(ws.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await alt?.close();
  await ws?.remove();
});

/** The per-service setting as the library keeps it (what the adapter reads). */
function kept(): unknown {
  const db = new Database(join(ws.dir, 'home', 'library.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare('SELECT value FROM settings WHERE key = ?')
      .get(`service.reading:${alt.url}`) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as unknown) : null;
  } finally {
    db.close();
  }
}

describe('a service whose box origin nothing decides', () => {
  it('asks the person to confirm on the preview, and keeps their choice', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, alt.url, alt.key);
    const panel = page.getByRole('region', { name: 'Check service' });
    await panel.getByRole('textbox', { name: /File to send/ }).fill(photo);
    await panel.getByRole('button', { name: 'Send this file' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: 'Not everything LabelDesk needs is understood.' })
      .waitFor({ timeout: 60_000 });
    await panel
      .getByRole('list', { name: 'What LabelDesk understood' })
      .getByRole('listitem')
      .filter({ hasText: 'box origin — undecided: bbox and bboxPx read alike' })
      .waitFor();
    const question = panel.getByRole('region', { name: 'Box origin undecided' });
    await question.waitFor();
    const drawn = panel.getByRole('img', { name: '2 boxes returned by the service' });
    await drawn.scrollIntoViewIfNeeded();
    await screenshot(page, 'box-origin-undecided');
    expect(kept()).toBeNull();

    await question.getByRole('button', { name: 'Confirm: x,y is the top-left corner' }).click();
    await question
      .getByRole('status')
      .filter({ hasText: "Confirmed: a box's x,y is its top-left corner, kept for this service." })
      .waitFor({ timeout: 10_000 });
    await expect.poll(kept, { timeout: 10_000 }).toEqual({ boxOrigin: 'corner' });

    // Checked again: the person's choice settles it.
    await panel.getByRole('button', { name: 'Check service', exact: true }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: 'Everything LabelDesk needs is understood.' })
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'box-origin-confirmed');
  }, 180_000);
});
