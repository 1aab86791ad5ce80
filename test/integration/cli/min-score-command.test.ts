/**
 * Issue 27 §1: the library's minimum score (default 0.3) decides what an export carries unless
 * --min-score says otherwise; `labeldesk min-score` reads and sets it.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../support/cli-exports.js';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
let outN = 0;

async function exportedScores(...extra: string[]): Promise<number[]> {
  const out = join(t.dir, `out-${++outN}.csv`);
  const r = await runCli(['export', '--format', 'csv', '--out', out, ...extra], env);
  expect(r.code, r.stderr).toBe(0);
  return (await readCsv(out)).map((row) => Number(row.score));
}

beforeAll(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  const folder = join(t.dir, 'set');
  await mkdir(folder);
  await distinctJpegs(folder, 3);
  const r = await runCli(['label', folder, '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => t.remove());

describe('labeldesk min-score', () => {
  it('is 0.3 on a new library and filters the exports that name no --min-score', async () => {
    const shown = await runCli(['min-score', '--json'], env);
    expect(JSON.parse(shown.stdout)).toEqual({ minScore: 0.3 });
    // The stand-in engine scores 0.5–0.99: a minimum in the middle splits its boxes.
    const all = await exportedScores('--min-score', '0');
    const middle = [...all].sort((a, b) => a - b)[Math.floor(all.length / 2)] ?? 1;
    expect(Math.min(...all)).toBeLessThan(middle);

    const set = await runCli(['min-score', String(middle)], env);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`Minimum score: ${middle}\n`);
    const filtered = await exportedScores();
    expect(filtered.length).toBeLessThan(all.length);
    expect(filtered.length).toBe(all.filter((s) => s >= middle).length);
    // An explicit --min-score still wins over the setting.
    expect(await exportedScores('--min-score', '0')).toHaveLength(all.length);
  });

  it('refuses a score outside 0–1', async () => {
    const r = await runCli(['min-score', '1.5'], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The minimum score is a number from 0 to 1');
  });
});
