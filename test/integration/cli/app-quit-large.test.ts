/**
 * Issue 23 §5: `labeldesk app` quits within 3 s of SIGTERM while it rescans a 100,000-file library
 * at start (it took 3.1–3.8 s, up to 6.5 s on a loaded machine: the rescan read the library's 100k
 * rows in one synchronous call, twice, and a watcher set up during the quit walked the whole
 * tree before closing). SIGTERM is sent at several moments of the start-up rescan; each time the
 * app closes cleanly (exit 0, not its own deadline's 1), the library is sound and nothing was
 * marked missing. reconcile-abort.test.ts proves the abort between pages without any clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, cliHome, startCli, type CliProcess } from '../../support/cli-run.js';
import { assertFreshBuild, integrityOf, queryLibrary } from '../../support/crash-cli.js';
import { cachedTinyPhotos, libraryAt } from '../../support/large-library.js';
import { QUIT_WITHIN_MS, quitTimed } from '../../support/quit-timing.js';

const PHOTOS = 100_000;
/** After "LabelDesk is running": reading the library's rows, walking, comparing. */
const MOMENTS_MS = [600, 1400, 2200, 3000];

let home: { home: string; dir: string; remove: () => Promise<void> };
const running = new Set<CliProcess>();

beforeAll(async () => {
  assertFreshBuild(['electron/application', 'electron/core/library', 'electron/cli']);
  home = await cliHome();
  await libraryAt(home.home, await cachedTinyPhotos(PHOTOS), 'read');
}, 300_000);

afterAll(async () => {
  for (const run of running) run.child.kill('SIGKILL');
  await home?.remove();
});

const count = (where: string) =>
  queryLibrary<{ n: number }>(home.home, `SELECT count(*) AS n FROM media WHERE ${where}`)[0]?.n ??
  0;

describe('labeldesk app on a 100,000-file library', () => {
  it.each(MOMENTS_MS)(
    'quits within 3 s of SIGTERM %i ms into the start-up rescan',
    async (ms) => {
      const env = cliEnv(home.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
      const run = startCli(['app', '--port', '0', '--no-open'], env);
      running.add(run);
      await run.waitForOutput(/LabelDesk is running at (\S+)/, { timeoutMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, ms));
      const quit = await quitTimed(run);
      running.delete(run);
      expect(quit.code, run.stderr()).toBe(0);
      expect(quit.ms, run.stderr()).toBeLessThan(QUIT_WITHIN_MS);
      expect(integrityOf(home.home)).toBe('ok');
      expect(count("status = 'missing'")).toBe(0);
      expect(count("status = 'present'")).toBe(PHOTOS);
    },
    120_000,
  );
});
