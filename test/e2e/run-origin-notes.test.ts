/**
 * Issue 23 §3 on the Runs screen: a run against alt service i (x,y are each box's centre, and
 * only its second paid answer says so). The run says once that boxes are read with an assumed,
 * unconfirmed origin, and once the answers decide it, that the files held meanwhile were read
 * again: both kept beside the status after Done, as `labeldesk label` prints them.
 */
import Database from 'better-sqlite3';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../support/alt-service/alt-service.js';
import { jpeg } from '../support/synth-media.js';
import {
  addFolderByPath,
  connectHosted,
  openApp,
  runStatus,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';

const FILES = 6;

let app: BrowserApp;
let alt: AltService;
let ws: Workspace;

beforeAll(async () => {
  ws = await workspace('labeldesk-e2e-run-origin-');
  for (let i = 0; i < FILES; i++)
    await writeFile(join(ws.folder, `p${i}.jpg`), await jpeg(240 + 16 * i, 200, 20 + i));
  alt = await startAltService('i');
  app = await startBrowserApp({ LABELDESK_HOME: join(ws.dir, 'home') });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await alt?.close();
  await ws?.remove();
});

/** Paid answers still held with an assumed origin, as the library keeps them. */
function heldAnswers(): number {
  const db = new Database(join(ws.dir, 'home', 'library.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT count(*) FROM raw_answers WHERE origin_pending = 1')
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

describe('a run whose answers decide the box origin only later', () => {
  it('says the assumed origin once, then which held files were read again', async () => {
    const { page } = app;
    await openApp(app, /Embedded service · online/);
    await connectHosted(page, alt.url, alt.key);
    const row = await addFolderByPath(page, ws.folder);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Images\s*6/);
    await page.keyboard.press('Control+3');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await runStatus(page, /^Done: /).waitFor({ timeout: 90_000 });

    const notes = page.getByRole('list', { name: 'Run notes' }).getByRole('listitem');
    // The first answer leaves the origin undecided, the second decides it (and is read as it
    // came). Held, and so read again: the first, and those read before the decision was kept,
    // which depends on how many were on their way then (all four here alone, two once under the
    // suite's load); an answer read after it needs no second read. None stays held.
    const rereadFiles = async () =>
      (await notes.allTextContents())
        .map((l) => /^Read the boxes of (\d+) file\(s\) again with the box origin/.exec(l))
        .reduce((n, m) => n + Number(m?.[1] ?? 0), 0);
    const readAgain = async () => [(await rereadFiles()) > 0, heldAnswers()];
    await expect.poll(readAgain, { timeout: 10_000 }).toEqual([true, 0]);
    expect(await rereadFiles()).toBeLessThanOrEqual(FILES - 1);
    const lines = await notes.allTextContents();
    expect(lines[0]).toMatch(/^Box origin assumed: corner — not confirmed/);
    expect(lines[0]).toMatch(/Service screen's preview/);
    expect(lines.filter((l) => /^Box origin assumed/.test(l))).toHaveLength(1);
    expect(alt.paidCalls).toBe(FILES);
    await screenshot(page, 'runs-origin-notes');
  }, 180_000);
});
