/**
 * `labeldesk doctor` (a child process) against the alternative test service: variant a names its
 * limits and costs its own way (understood as …, not published: using …) and doctor exits 0;
 * variant d's answers cannot be read, so after a run doctor counts the paid answers kept raw, and
 * `--spend` says the answer was charged but not understood (exit 6), with what it cost.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../electron/shared/contract/index.js';
import { startAltService, type AltService } from '../../support/alt-service/alt-service.js';
import { ledgerFrames } from '../../support/alt-service/alt-library.js';
import { cliEnv, cliHome, lastJson, runCli } from '../../support/cli-run.js';
import { jpeg } from '../../support/synth-media.js';

let alt: AltService | undefined;
let t: { home: string; dir: string; remove: () => Promise<void> } | undefined;
afterEach(async () => {
  await alt?.close();
  await t?.remove();
  alt = undefined;
  t = undefined;
});

async function setUp(variant: 'a' | 'd') {
  alt = await startAltService(variant);
  t = await cliHome();
  const env = cliEnv(t.home, { LABELDESK_API_KEY: alt.key });
  const images = join(t.dir, 'images');
  await mkdir(images);
  await writeFile(join(images, 'a.jpg'), await jpeg(320, 240, 1));
  await writeFile(join(images, 'b.jpg'), await jpeg(640, 360, 2));
  const doctor = async (...extra: string[]) => {
    const r = await runCli(['doctor', '--service', alt!.url, '--json', ...extra], env);
    return { code: r.code, stderr: r.stderr, report: lastJson<CheckReport>(r.stdout) };
  };
  return { alt, home: t.home, env, images, doctor };
}

describe('labeldesk doctor against the alternative service', () => {
  it('a: alternative forms and unpublished limits are named, the costs understood, exit 0', async () => {
    const s = await setUp('a');
    const { code, report } = await s.doctor();
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    const verdicts = new Set(report.parts.map((p) => p.verdict));
    expect(verdicts).toContain('not-published');
    expect(report.parts.find((p) => p.part === 'solutions[objects].frameCost')).toMatchObject({
      verdict: 'understood-as',
      text: 'understood as `cost` with perImage, perFrame: 3 frames per image, 1 frame per clip frame',
    });
    for (const p of report.parts.filter((p) => p.verdict === 'not-published'))
      expect(p.text).toMatch(/^not published(?: by the service)?: using /);
    expect(report.keptAnswers).toBe(0);
    expect(s.alt.paidCalls).toBe(0);
  });

  it('d: counts the paid answers kept raw; --spend says charged but not understood, exit 6', async () => {
    const s = await setUp('d');
    await runCli(['label', s.images, '--service', s.alt.url, '--yes'], s.env);
    expect(s.alt.paidCalls).toBe(2);
    const check = await s.doctor();
    expect(check.code).toBe(0);
    expect(check.report.keptAnswers).toBe(2);
    const text = await runCli(['doctor', '--service', s.alt.url], s.env);
    expect(text.stdout).toContain('answers kept raw: 2 paid answers not understood');

    const spend = await s.doctor('--spend', join(s.images, 'a.jpg'));
    expect(spend.code, spend.stderr).toBe(6);
    expect(spend.report.ok).toBe(false);
    expect(spend.report.parts.at(-1)).toMatchObject({
      part: 'answer for a.jpg',
      verdict: 'not-understood',
    });
    expect(spend.report.parts.at(-1)!.text).toMatch(/^charged but not understood \(/);
    expect(spend.report.spend).toMatchObject({ spent: 2, boxes: [] });
    expect(s.alt.paidCalls).toBe(3);
    expect(ledgerFrames(s.home)).toBe(s.alt.charged);
  });
});
