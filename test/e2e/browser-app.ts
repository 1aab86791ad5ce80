/**
 * End-to-end harness: `labeldesk app` as a real process (its own LABELDESK_HOME), and the built
 * renderer in Debian's Chromium through playwright-core. Needs `npm run build` first (out/renderer).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { CLI } from '../support/run-serve.js';
import { collectPageCoverage } from '../support/child-coverage.js';
import { launchChromium } from '../support/sdk-browser.js';
import { tempDir } from '../support/temp-dir.js';

const RENDERER = fileURLToPath(new URL('../../out/renderer/index.html', import.meta.url));

export interface BrowserApp {
  /** The printed URL, with the launch secret in its fragment. */
  url: string;
  child: ChildProcess;
  browser: Browser;
  page: Page;
  output(): string;
  close(): Promise<void>;
}

/** A D-Bus address nothing listens on: the app runs as on a machine with no keychain. */
export const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/labeldesk-bus' };

export async function startBrowserApp(env: NodeJS.ProcessEnv, port = 0): Promise<BrowserApp> {
  if (!existsSync(RENDERER)) throw new Error('out/renderer is missing: run `npm run build` first');
  const child = spawn(process.execPath, [CLI, 'app', '--port', String(port), '--no-open'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app printed no URL: ${out}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`app exited ${code}: ${out}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#secret=[A-Za-z0-9_-]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const browser = await launchChromium();
  // A context of its own, so a test can open a second tab of the same browser profile.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const saveCoverage = await collectPageCoverage(page);
  return {
    url,
    child,
    browser,
    page,
    output: () => out,
    async close() {
      // A test that closed the page itself has nothing left to report.
      await saveCoverage().catch(() => undefined);
      await browser.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // A stuck shutdown must not hang the suite; the app's own close is tested elsewhere.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** What a person sees at a key moment, kept in test-results/ (git-ignored) for a look. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS, { recursive: true });
  const path = join(RESULTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

/**
 * A screenshot the README shows: taken into test-results/ like any other, and copied into docs/
 * only by `npm run docs:screenshots`, so an ordinary test run never dirties the checkout.
 */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name);
  if (process.env.LABELDESK_DOCS_SCREENSHOTS === '1')
    await copyFile(path, join(DOCS, `${name}.png`));
}

/** Opens the printed URL and waits for the app to show which service answers. */
export async function openApp(app: BrowserApp, pill: RegExp = /service · /): Promise<void> {
  // The app takes its secret out of the address, so going to app.url again from the app would be
  // a same-document fragment change: leave the page first, so that this is a real (re)load.
  await app.page.goto('about:blank');
  await app.page.goto(app.url);
  await app.page.getByText(pill).waitFor({ timeout: 90_000 });
}

/** Folders screen → Add folder → type the path → Add; resolves with the folder's row. */
export async function addFolderByPath(page: Page, folder: string): Promise<Locator> {
  await page.getByRole('navigation').getByRole('button', { name: 'Folders' }).click();
  await page.getByRole('button', { name: 'Add folder' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Folder path' }).fill(folder);
  await dialog.getByRole('button', { name: 'Add' }).click();
  const row = page.getByRole('listitem', { name: folder });
  await row.waitFor();
  return row;
}

/** Service screen → Hosted service form: base URL and API key → Connect, until connected. */
export async function connectHosted(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Service' }).click();
  const form = page.getByRole('form', { name: 'Hosted service' });
  await form.getByRole('textbox', { name: 'Base URL' }).fill(baseUrl);
  await form.getByLabel('API key').fill(key);
  await form.getByRole('button', { name: 'Connect' }).click();
  await form.getByRole('status').filter({ hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
}

/** The remaining frames the header shows ("1,234 frames left · … this hour"). */
export async function headerRemaining(page: Page): Promise<number> {
  const text = (await page.getByLabel('Credits', { exact: true }).textContent()) ?? '';
  const m = /([\d,]+) frames left/.exec(text);
  if (!m?.[1]) throw new Error(`the header shows no credits: "${text}"`);
  return Number(m[1].replace(/,/g, ''));
}

export interface KeyBalance {
  remaining: number;
  hourRemaining: number;
}

/** GET /key with the key itself, straight to the service: what the key really has left. */
export async function keyBalance(baseUrl: string, key: string): Promise<KeyBalance> {
  const res = await fetch(`${baseUrl}/key`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`GET /key answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as KeyBalance;
}

export interface Workspace {
  /** The temp folder everything of the test lives in (the app's home, the services' data). */
  dir: string;
  /** An empty media folder inside it, to fill and add to the library. */
  folder: string;
  remove(): Promise<void>;
}

export async function workspace(prefix: string, folderName = 'photos'): Promise<Workspace> {
  const tmp = await tempDir(prefix);
  const folder = join(tmp.dir, folderName);
  await mkdir(folder);
  return { ...tmp, folder };
}

/** The Runs screen's status line, once it matches `text`. */
export function runStatus(page: Page, text: RegExp): Locator {
  return page.getByRole('status').filter({ hasText: text });
}

/** "…, 12 frames spent" → 12. */
export function framesSpentIn(text: string): number {
  return Number(/(\d+) frames? spent/.exec(text)?.[1]);
}
