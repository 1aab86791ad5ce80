/**
 * A damaged `library.sqlite` (a bad header, or pages overwritten deep in the file) is one sentence
 * naming the file and what to do, with an exit code of its own (5, not 1 "some files failed").
 * The real compiled CLI, null engine, a library really written by an earlier run, then damaged.
 */
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let file: string;

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  await distinctJpegs(t.dir, 40);
  expect((await runCli(['label', t.dir, '--yes'], env)).code).toBe(0);
  file = join(t.home, 'library.sqlite');
});
afterEach(() => t.remove());

async function expectDamaged(args: string[]) {
  const r = await runCli(args, env);
  expect(r.code, r.stderr).toBe(5);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    new RegExp(`^labeldesk: The library database ${file} is damaged \\(.+\\): move it aside`),
  );
}

describe('a damaged library.sqlite', () => {
  it('with a bad header: every command says so in one sentence and exits 5', async () => {
    const bytes = await readFile(file);
    bytes.write('this is no database', 0);
    await writeFile(file, bytes);
    await expectDamaged(['plan', t.dir]);
    await expectDamaged(['status']);
    await expectDamaged(['export', '--format', 'csv', '--out', join(t.dir, 'out.csv')]);
    await expectDamaged(['label', t.dir, '--yes']);
  });

  it('with pages overwritten deep in the file: the same sentence and code', async () => {
    const size = (await readFile(file)).length;
    const handle = await open(file, 'r+');
    // Everything after the first page: tables and indexes, not the header.
    await handle.write(Buffer.alloc(size - 4096, 0x5a), 0, size - 4096, 4096);
    await handle.close();
    await expectDamaged(['export', '--format', 'csv', '--out', join(t.dir, 'out.csv')]);
    await expectDamaged(['plan', t.dir]);
  });
});
