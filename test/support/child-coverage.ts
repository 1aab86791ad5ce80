/**
 * `npm run coverage` support. The CLI, the app and the embedded service run as child processes in
 * the integration and end-to-end tiers, and the renderer runs in Chromium: neither is seen by
 * Vitest's in-process coverage. When LABELDESK_CHILD_COVERAGE names a folder, children write their
 * raw V8 coverage there (Node does this for NODE_V8_COVERAGE), and the browser pages beside it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const childCoverageDir = process.env.LABELDESK_CHILD_COVERAGE;

const RENDERER_OUT = fileURLToPath(new URL('../../out/renderer/', import.meta.url));
let pages = 0;

/** Starts collecting the page's JavaScript coverage; the returned function saves it. */
export async function collectPageCoverage(page: Page): Promise<() => Promise<void>> {
  if (!childCoverageDir) return async () => {};
  const dir = join(dirname(childCoverageDir), 'raw-browser');
  await mkdir(dir, { recursive: true });
  await page.coverage.startJSCoverage({ resetOnNavigation: false });
  return async () => {
    const entries = await page.coverage.stopJSCoverage();
    // The report reads each script from its file and follows its source map back to renderer/src.
    const result = entries.flatMap((e) => {
      const asset = /^https?:\/\/[^/]+\/(assets\/[^?#]+\.js)/.exec(e.url)?.[1];
      if (!asset) return [];
      const url = `file://${join(RENDERER_OUT, asset)}`;
      return [{ scriptId: e.scriptId, url, functions: e.functions }];
    });
    const name = `coverage-browser-${process.pid}-${++pages}.json`;
    await writeFile(join(dir, name), JSON.stringify({ result }));
  };
}
