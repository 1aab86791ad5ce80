/**
 * Issue 23 §4: an export never writes nothing without saying why. A library labelled through a
 * solution other than `objects` (here `face`) exported with no --solution exports that solution;
 * with several solutions labelled, every one, joined per file. When the solution or a filter
 * leaves nothing although the library has boxes, the export names the solutions and filters that
 * hold them, writes nothing and exits non-zero.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication } from '../../../electron/application/create-application.js';
import { readCsv } from '../../support/cli-exports.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let folder: string;
let outN = 0;

const target = () => join(t.dir, `out-${++outN}.csv`);
const exportCsv = (out: string, ...extra: string[]) =>
  runCli(['export', '--format', 'csv', '--out', out, ...extra], env);

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  folder = join(t.dir, 'set');
  await mkdir(folder);
  await distinctJpegs(folder, 3);
  const r = await runCli(['label', folder, '--solution', 'face', '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => t.remove());

describe('labeldesk export without --solution', () => {
  let faces: number;

  it('exports the one solution the library holds', async () => {
    const out = target();
    const r = await exportCsv(out);
    expect(r.code, r.stderr).toBe(0);
    const rows = await readCsv(out);
    faces = rows.length;
    expect(faces).toBeGreaterThan(0);
    expect(r.stdout).toMatch(new RegExp(`^Exported ${faces} boxes from 3 files`));
  });

  it('refuses a solution that holds nothing here, naming the one that does', async () => {
    const out = target();
    const r = await exportCsv(out, '--solution', 'objects');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `Nothing to export: solution objects holds no boxes here; they are under face (${faces} boxes in 3 files).`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses filters that leave nothing, saying which filter and what the boxes are', async () => {
    // The null engine scores 0.5–0.99: a minimum of 1 leaves none.
    const out = target();
    const score = await exportCsv(out, '--min-score', '1');
    expect(score.code).not.toBe(0);
    expect(score.stderr).toMatch(
      new RegExp(
        `solution face holds ${faces} boxes in 3 files, but the minimum score 1 leaves none \\(the highest is 0\\.\\d+\\)`,
      ),
    );
    const classes = await exportCsv(out, '--classes', 'person');
    expect(classes.code).not.toBe(0);
    expect(classes.stderr).toContain('the classes person leave none (its labels: face)');
    expect(existsSync(out)).toBe(false);
  });

  it('the app’s export dialog gets the same sentence (and nothing is written)', async () => {
    const app = await createApplication({ transport: 'in-process', mediaBase: 'test://', env });
    const out = target().replace(/csv$/, 'json');
    try {
      await expect(
        Promise.resolve(
          app.handlers['export.start']({
            format: 'coco',
            destination: out,
            solution: 'objects',
            scope: { kind: 'all' },
            onlyAccepted: false,
            minScore: 0,
            clipFrames: false,
            replace: false,
          }),
        ),
      ).rejects.toMatchObject({
        code: 'export_empty',
        message: `Nothing to export: solution objects holds no boxes here; they are under face (${faces} boxes in 3 files). Export that solution instead.`,
      });
    } finally {
      await app.close();
    }
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('exports every solution labelled, joined per file', async () => {
    const r = await runCli(['label', folder, '--solution', 'objects', '--yes'], env);
    expect(r.code, r.stderr).toBe(0);
    const objects = await readCsv(
      await (async () => {
        const out = target();
        expect((await exportCsv(out, '--solution', 'objects')).code).toBe(0);
        return out;
      })(),
    );
    const out = target();
    const both = await exportCsv(out);
    expect(both.code, both.stderr).toBe(0);
    const rows = await readCsv(out);
    expect(rows.length).toBe(faces + objects.length);
    expect(both.stdout).toMatch(new RegExp(`^Exported ${rows.length} boxes from 3 files`));
    expect(new Set(rows.map((b) => b.label)).has('face')).toBe(true);
  }, 120_000);
});
