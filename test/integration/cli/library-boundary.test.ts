/**
 * A library folder is a boundary, driven as a hostile folder would drive the CLI: real symbolic
 * links to `/`, to `/etc/passwd` and to a photo outside, and a link swapped after the scan to a
 * file of the same size and time. Null engine; the real compiled CLI in its own process.
 */
import { copyFile, mkdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  lastJson,
  cliOnTerminal,
  runCli,
  until,
  type IssueJson,
  type SummaryJson,
} from '../../support/cli-run.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;
let outside: string;

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'photos');
  outside = join(t.dir, 'outside');
  await mkdir(folder);
  await mkdir(outside);
  await distinctJpegs(folder, 1);
});
afterEach(() => t.remove());

async function sameSizeAndTime(file: string, when: number): Promise<string> {
  const secret = join(outside, 'secret.txt');
  await writeFile(secret, Buffer.alloc((await stat(file)).size, 's'));
  await utimes(secret, when, when);
  return secret;
}

async function swapLink(link: string, target: string): Promise<void> {
  await rm(link);
  await symlink(target, link);
}

interface PlanJson {
  found: number;
  toLabel: { images: number };
  refused: IssueJson[];
}

describe('a library folder is a boundary', () => {
  it('never walks a link to /; a link to /etc/passwd is refused, a linked photo is taken', async () => {
    await symlink('/', join(folder, 'root-link'));
    await symlink('/etc/passwd', join(folder, 'passwd.jpg'));
    await distinctJpegs(outside, 1, 'far', 3);
    await symlink(join(outside, 'far0.jpg'), join(folder, 'far.jpg'));
    const started = Date.now();
    const r = await runCli(['plan', folder, '--json'], env, { timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    // Today the link to / walked the whole machine (808,249 files in 68 s).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.stderr).toContain(`skipped ${join(folder, 'root-link')}: Linked folder not followed`);
    const plan = lastJson<PlanJson>(r.stdout);
    expect(plan.found).toBe(3);
    expect(plan.toLabel.images).toBe(2);
    expect(plan.refused).toEqual([
      {
        path: join(folder, 'passwd.jpg'),
        code: 'undecodable_media',
        message: expect.stringMatching(/^The image cannot be decoded/),
      },
    ]);
  });

  it('a link swapped after the scan to a same-size, same-time file: re-read, never sent', async () => {
    const [far] = await distinctJpegs(outside, 1, 'far', 3);
    const link = join(folder, 'far.jpg');
    await symlink(far as string, link);
    const when = Math.floor(Date.now() / 1000) - 60;
    await utimes(far as string, when, when);
    await cliJson(['plan', folder], env);
    // A "secret" of exactly the photo's size and modification time: only its identity differs.
    const secret = await sameSizeAndTime(far as string, when);
    await swapLink(link, secret);
    const r = await runCli(['label', folder, '--yes', '--json'], env);
    expect(r.code).toBe(1);
    expect(lastJson<SummaryJson>(r.stdout).failed).toEqual([
      { path: link, code: 'undecodable_media', message: expect.any(String) },
    ]);
  });

  it('a link swapped while the run waits for its confirmation is not uploaded', async (ctx) => {
    const [far] = await distinctJpegs(outside, 1, 'far', 3);
    const link = join(folder, 'far.jpg');
    await symlink(far as string, link);
    const when = Math.floor(Date.now() / 1000) - 60;
    await utimes(far as string, when, when);
    const secret = await sameSizeAndTime(far as string, when);
    // On a terminal it scans, probes, then asks: the swap comes then.
    const tty = cliOnTerminal(['label', folder], env);
    if (!tty) return ctx.skip();
    await until('the question', () => tty.output().includes('[y/N]'));
    await swapLink(link, secret);
    tty.type('y\n');
    const code = await tty.exited;
    const out = tty.output();
    expect(code, out).toBe(1);
    expect(out).toContain(`failed ${link}: file_replaced: The file is no longer the one`);
    expect(out).toMatch(/Labelled 1 · .*failed 1/);
  }, 60_000);

  it('refuses / and a device as library folders, with one sentence and exit code 2', async () => {
    const root = await runCli(['label', '/', '--yes'], env);
    expect(root.code).toBe(2);
    expect(root.stderr.trim()).toBe(
      'labeldesk: / is the whole disk, not a library folder; add the folder that holds your media.',
    );
    const device = await runCli(['plan', '/dev/null'], env);
    expect(device.code).toBe(2);
    expect(device.stderr).toContain('/dev/null is not a folder');
    await copyFile(join(folder, 'photo0.jpg'), join(t.dir, 'single.jpg'));
    expect((await runCli(['plan', join(t.dir, 'single.jpg')], env)).code).toBe(0);
  });
});
