/**
 * Issue 27 §2 in the app: the Service screen's Models section adds an own ONNX detector from its
 * path (saying what it assumed), the embedded service restarts and its catalog lists the model as
 * a solution; a file that is not ONNX is refused with its sentence; Remove takes the model away.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownModels } from '../support/own-model-files.js';
import {
  openApp,
  screenshot,
  startBrowserApp,
  workspace,
  type BrowserApp,
  type Workspace,
} from './browser-app.js';

let app: BrowserApp;
let ws: Workspace;

beforeAll(async () => {
  ws = await workspace('labeldesk-e2e-models-');
  await writeFile(join(ws.dir, 'pets.onnx'), ownModels.yolov8());
  await writeFile(join(ws.dir, 'notes.onnx'), 'not a model');
  app = await startBrowserApp({
    LABELDESK_HOME: join(ws.dir, 'home'),
    LABELDESK_EMBEDDED_ENGINE: 'null',
  });
  await openApp(app);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await ws?.remove();
});

describe('Models on the Service screen', () => {
  it('adds a model, lists it in the catalog, refuses a non-ONNX file, removes it', async () => {
    const page = app.page;
    await page.getByRole('navigation').getByRole('button', { name: 'Service' }).click();
    const form = page.getByRole('form', { name: 'Add a model' });
    await form.getByRole('textbox', { name: 'Model file' }).fill(join(ws.dir, 'notes.onnx'));
    await form.getByRole('button', { name: 'Add model' }).click();
    await form.getByText(/notes\.onnx is not an ONNX model/).waitFor();

    await form.getByRole('textbox', { name: 'Model file' }).fill(join(ws.dir, 'pets.onnx'));
    await form.getByRole('button', { name: 'Add model' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: 'Added pets. No layout chosen; assumed yolov8' })
      .waitFor({ timeout: 30_000 });
    const models = page.getByRole('table', { name: 'Own models' });
    await models.getByRole('rowheader', { name: 'pets' }).waitFor();
    expect(await models.getByRole('row').nth(1).textContent()).toContain('2 (metadata)');
    // The restarted embedded service publishes it as a solution.
    await page.getByText('pets', { exact: true }).last().waitFor({ timeout: 60_000 });
    await expect
      .poll(async () => (await page.locator('code', { hasText: /^pets$/ }).count()) > 0, {
        timeout: 60_000,
      })
      .toBe(true);
    await screenshot(page, 'service-models');

    await models.getByRole('button', { name: 'Remove pets' }).click();
    await page.getByText('No own models yet.').waitFor();
    await expect
      .poll(async () => page.locator('code', { hasText: /^pets$/ }).count(), { timeout: 60_000 })
      .toBe(0);
  });
});
