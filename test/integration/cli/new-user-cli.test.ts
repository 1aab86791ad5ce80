/**
 * What a new user met in the CLI: a file path registering its whole folder, silent options,
 * exports overwriting or refusing depending on the format, raw connection errors, control
 * characters in names. The embedded service runs the null engine here.
 */
import Database from 'better-sqlite3';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { runServe } from '../../support/run-serve.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'photos');
  await mkdir(folder);
  await distinctJpegs(folder, 3);
});
afterEach(() => t.remove());

/** The library's roots and media paths, read straight from its database. */
function library(): { roots: string[]; media: string[] } {
  const db = new Database(join(t.home, 'library.sqlite'), { readonly: true });
  try {
    const roots = db.prepare('SELECT path FROM folders ORDER BY path').pluck().all() as string[];
    const media = db.prepare('SELECT path FROM media ORDER BY path').pluck().all() as string[];
    return { roots, media };
  } finally {
    db.close();
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('paths', () => {
  it('a file given to plan is recorded alone; later runs read only what they are given', async () => {
    const one = join(folder, 'photo0.jpg');
    const plan = await runCli(['plan', one, '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ found: 1, toLabel: { images: 1 } });
    expect(library()).toEqual({ roots: [one], media: [one] });

    // A non-media file is skipped with a word; alone, it is a usage error and records nothing.
    const notes = join(folder, 'notes.txt');
    await writeFile(notes, 'not a photo');
    const refused = await runCli(['plan', notes], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not an image or a clip');
    const mixed = await runCli(['plan', notes, one], env);
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stderr).toContain(`skipped ${notes}`);

    // Another folder: the first file's folder is neither scanned nor added.
    const other = join(t.dir, 'other');
    await mkdir(other);
    await distinctJpegs(other, 1, 'other');
    expect((await runCli(['plan', other], env)).code).toBe(0);
    expect(library().roots).toEqual([other, one]);
    expect(library().media).toEqual([join(other, 'other0.jpg'), one]);

    // Giving the folder later takes the file in: one root, every photo, the file not read again.
    const all = await runCli(['label', folder, '--yes', '--json'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(library().roots).toEqual([other, folder]);
    expect(library().media).toHaveLength(4);

    // A subfolder of a known root: only the subfolder is read, not the rest of the root.
    await mkdir(join(folder, 'day2'));
    await distinctJpegs(join(folder, 'day2'), 1, 'day2-', 10);
    await distinctJpegs(folder, 1, 'later', 20);
    const sub = await runCli(['plan', join(folder, 'day2'), '--json'], env);
    expect(sub.code, sub.stderr).toBe(0);
    expect(JSON.parse(sub.stdout)).toMatchObject({ found: 1 });
    expect(library().roots).toEqual([other, folder]);
    expect(library().media).toHaveLength(5);
    expect(library().media).not.toContain(join(folder, 'later20.jpg'));
  });
});

describe('usage errors (exit 2, nothing sent)', () => {
  it.each([
    ['--out without --export', ['label', '.', '--out', 'x.json', '--yes'], /--out needs --export/],
    [
      'a service URL without its scheme',
      ['status', '--service', 'localhost:8787'],
      /--service takes a base URL with its scheme.*Did you mean http:\/\/localhost:8787/,
    ],
    [
      'a class no solution has',
      ['export', '--format', 'csv', '--out', 'x.csv', '--classes', 'person,unicorn,dragon'],
      /--classes: no solution has "unicorn", "dragon"/,
    ],
  ])('%s', async (_what, args, message) => {
    const r = await runCli(args, env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('export', () => {
  beforeEach(async () => {
    const r = await runCli(['label', folder, '--yes'], env);
    expect(r.code, r.stderr).toBe(0);
  });

  it.each([
    ['coco', 'boxes.json'],
    ['csv', 'boxes.csv'],
    ['yolo', 'yolo'],
    ['mot', 'mot'],
  ])(
    '%s: an existing export is refused without --force, replaced with it',
    async (format, name) => {
      const out = join(t.dir, name);
      const args = ['export', '--format', format, '--out', out];
      expect((await runCli(args, env)).code).toBe(0);
      const again = await runCli(args, env);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already exists|not empty/);
      expect(again.stderr).toContain('--force');
      const forced = await runCli([...args, '--force'], env);
      expect(forced.code, forced.stderr).toBe(0);
    },
  );

  it('COCO file_name is relative to the image root; the absolute path is kept', async () => {
    const out = join(t.dir, 'coco.json');
    expect((await runCli(['export', '--format', 'coco', '--out', out], env)).code).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8')) as {
      info: { image_root: string };
      images: { file_name: string; absolute_path: string }[];
    };
    expect(doc.info.image_root).toBe(folder);
    expect(doc.images.map((i) => i.file_name).sort()).toEqual([
      'photo0.jpg',
      'photo1.jpg',
      'photo2.jpg',
    ]);
    for (const i of doc.images) expect(i.absolute_path).toBe(join(folder, i.file_name));
  });

  it('label --export checks the target before it spends anything', async () => {
    const out = join(t.dir, 'taken.json');
    await writeFile(out, 'mine');
    const r = await runCli(['label', folder, '--yes', '--export', 'coco', '--out', out], env);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toMatch(/Labelled/);
    expect(await readFile(out, 'utf8')).toBe('mine');
  });
});

describe('services', () => {
  it('an unreachable service is named and said to be unreachable', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['status', '--service', url], { ...env, LABELDESK_API_KEY: 'ldk_x_1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`The service at ${url} cannot be reached: nothing is listening`);
  });

  it('status without a key still reports health and version', async () => {
    const serve = await runServe(['--engine', 'null', '--data', join(t.dir, 'service')]);
    try {
      const r = await runCli(['status', '--service', serve.url, '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      const status = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(status).toMatchObject({ health: 'ok', remaining: null, audience: null });
      expect(status['version']).toEqual(expect.any(String));
      const text = await runCli(['status', '--service', serve.url], env);
      expect(text.stdout).toMatch(/^Service: .*version .*, ok/m);
      expect(text.stdout).toContain(
        'Key: none stored for this service (`labeldesk login --service',
      );
    } finally {
      await serve.stop();
    }
  });
});

describe('control characters in file names', () => {
  it('are uploaded and labelled, and printed escaped', async () => {
    const odd = join(t.dir, 'odd');
    await mkdir(odd);
    const [good] = await distinctJpegs(odd, 1);
    await rename(good!, join(odd, 'red\u001b[31m\nname.jpg'));
    await writeFile(join(odd, 'bell\u0007broken.jpg'), 'not a jpeg');
    const r = await runCli(['label', odd, '--yes'], env);
    expect(r.code).toBe(1); // the broken one fails, the other is labelled
    expect(r.stdout).toMatch(/^Labelled 1 /m);
    expect(r.stdout).toContain('bell\\x07broken.jpg');
    for (const c of ['\u0007', '\u001b']) expect(r.stdout + r.stderr).not.toContain(c);
  });
});
