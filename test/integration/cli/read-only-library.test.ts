/**
 * A library on a read-only mount (a read-only share, a read-only home): `plan`, `export`, `status`
 * and the app's browsing work; only writes say, in one sentence, why they cannot. A real read-only
 * bind mount of the library folder (tests run as root here, where `chmod a-w` would not stop
 * anything); skipped, saying so, where mounting is not allowed.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApplication } from '../../../electron/application/create-application.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let mounted = false;

function mountReadOnly(dir: string): boolean {
  try {
    execFileSync('mount', ['--bind', dir, dir], { stdio: 'ignore' });
    mounted = true;
    execFileSync('mount', ['-o', 'remount,ro,bind', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  await distinctJpegs(t.dir, 3);
  expect((await runCli(['label', t.dir, '--yes'], env)).code).toBe(0);
});
afterEach(async () => {
  if (mounted) execFileSync('umount', [t.home]);
  mounted = false;
  await t.remove();
});

describe('a read-only library', () => {
  it('plans, exports and reports status; label says why it cannot', async (ctx) => {
    if (!mountReadOnly(t.home)) {
      console.log('skipped: this machine does not allow a read-only bind mount');
      return ctx.skip();
    }
    const before = await readFile(join(t.home, 'library.sqlite'));
    const plan = await runCli(['plan', t.dir, '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(lastJson<{ alreadyLabelled: number }>(plan.stdout).alreadyLabelled).toBe(3);
    const out = join(t.dir, 'boxes.csv');
    const exported = await runCli(['export', '--format', 'csv', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = (await readFile(out, 'utf8')).split('\n');
    expect(new Set(rows.map((r) => /photo\d\.jpg/.exec(r)?.[0]).filter(Boolean)).size).toBe(3);
    const status = await runCli(['status', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    const label = await runCli(['label', t.dir, '--yes'], env);
    expect(label.code).toBe(2);
    expect(label.stderr.trim()).toBe(
      `labeldesk: The library in ${t.home} is read-only (it is on a read-only file system), so labelling results cannot be saved; plan, export, status and browsing still work.`,
    );
    const imported = await runCli(['import', out, '--format', 'csv'], env);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain('so imported labels cannot be saved');
    expect((await readFile(join(t.home, 'library.sqlite'))).equals(before)).toBe(true);
  }, 90_000);

  it('the app browses it and refuses edits with the same sentence', async (ctx) => {
    if (!mountReadOnly(t.home)) return ctx.skip();
    const app = await createApplication({
      transport: 'in-process',
      mediaBase: 'test://',
      env: { ...env },
    });
    try {
      const page = await app.handlers['library.page']({
        filter: { solution: 'objects' },
        sort: 'path',
        descending: false,
        offset: 0,
        limit: 10,
      });
      expect(page.items.map((i) => i.status)).toEqual(['labelled', 'labelled', 'labelled']);
      const thumb = await app.media.resolve('thumb', page.items[0]!.id);
      expect(thumb?.contentType).toBe('image/webp');
      await expect(app.handlers['folders.add']({ path: t.dir })).rejects.toMatchObject({
        code: 'read_only_library',
        message: expect.stringContaining('so a new folder cannot be saved'),
      });
    } finally {
      await app.close();
    }
  }, 60_000);
});
