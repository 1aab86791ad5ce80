/**
 * `labeldesk app` as a person starts it: one printed line with the address (the launch secret in
 * its fragment), the built renderer served, and the secret nowhere else: not in the logs, not in
 * any file of the library, not in the page's HTML. Ctrl-C ends it cleanly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, cliHome, startCli, type CliProcess } from '../../support/cli-run.js';
import { filesHolding } from '../../support/secrets-in-files.js';

let home: string;
let remove: () => Promise<void>;
let app: CliProcess;
let url: URL;

beforeAll(async () => {
  ({ home, remove } = await cliHome());
  app = startCli(['app', '--port', '0', '--no-open'], cliEnv(home));
  const [, printed] = await app.waitForOutput(/LabelDesk is running at (\S+)/, {
    timeoutMs: 60_000,
  });
  url = new URL(printed as string);
});

afterAll(async () => {
  app?.child.kill('SIGKILL');
  await remove?.();
});

describe('labeldesk app', () => {
  it('prints one loopback address with the secret in the fragment and serves the UI', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.hash).toMatch(/^#secret=[A-Za-z0-9_-]{24,}$/);
    expect(app.stdout().trim().split('\n')).toHaveLength(1);
    const page = await fetch(url.origin);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('keeps the secret out of logs, pages and every file of the library', async () => {
    const secret = url.hash.slice('#secret='.length);
    expect(app.stderr()).not.toContain(secret);
    expect(await (await fetch(url.origin)).text()).not.toContain(secret);
    const { read, holding } = await filesHolding(home, [secret]);
    expect(holding).toEqual([]);
    expect(read).toBeGreaterThan(0);
  });

  it('stops on Ctrl-C with exit code 0', async () => {
    app.child.kill('SIGINT');
    const { code } = await app.exited;
    expect(code).toBe(0);
  });
});
