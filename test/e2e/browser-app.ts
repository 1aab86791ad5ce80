/**
 * End-to-end harness: `labeldesk app` as a real process (its own LABELDESK_HOME), and the built
 * renderer in Debian's Chromium through playwright-core. Needs `npm run build` first (out/renderer).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { CLI } from '../support/run-serve.js';
import { launchChromium } from '../support/sdk-browser.js';

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

export async function startBrowserApp(env: NodeJS.ProcessEnv): Promise<BrowserApp> {
  if (!existsSync(RENDERER)) throw new Error('out/renderer is missing: run `npm run build` first');
  const child = spawn(process.execPath, [CLI, 'app', '--port', '0', '--no-open'], {
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
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  return {
    url,
    child,
    browser,
    page,
    output: () => out,
    async close() {
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
