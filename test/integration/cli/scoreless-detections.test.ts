/**
 * Issue 24 §1: a service's detection that carries no score is stored without one (it was stored
 * as 1), so `export --min-score` keeps it, the CSV shows no score, and `coco-results` ranks it
 * last (COCO needs a number) while a scored box below the filter is left out.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../support/misbehaving-service.js';
import { parseCsv } from '../../support/cli-exports.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { jpeg } from '../../support/synth-media.js';

let service: MisbehavingService;
let home: Awaited<ReturnType<typeof cliHome>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  service = await startMisbehavingService('no-scores');
  home = await cliHome();
  env = cliEnv(home.home, { LABELDESK_API_KEY: service.key });
  const images = join(home.dir, 'images');
  await mkdir(images);
  await writeFile(join(images, 'a.jpg'), await jpeg(320, 240, 7));
  const r = await runCli(['label', images, '--service', service.url, '--yes', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await service.close();
  await home.remove();
});

async function exportTo(format: string, name: string): Promise<string> {
  const out = join(home.dir, name);
  const r = await runCli(['export', '--format', format, '--min-score', '0.5', '--out', out], env);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

describe("a service's detection without a score", () => {
  it('is stored without one: export --min-score 0.5 keeps it, with an empty score', async () => {
    const csv = await exportTo('csv', 'boxes.csv');
    const [header, ...rows] = parseCsv(await readFile(csv, 'utf8')).filter((r) => r.length > 1);
    const [label, score] = ['label', 'score'].map((name) => header?.indexOf(name) ?? -1);
    expect(rows.map((r) => [r[label ?? -1], r[score ?? -1]])).toEqual([['person', '']]);
  });

  it('is written to COCO results with score 0 (ranked last), the scored box below 0.5 left out', async () => {
    const out = await exportTo('coco-results', 'results.json');
    const results = JSON.parse(await readFile(out, 'utf8')) as { score: number }[];
    expect(results.map((d) => d.score)).toEqual([0]);
  });
});
