/**
 * Issue 24 §4: the Runs screen's counts while a run goes and after it ends. Files the run has
 * just paid for (or is sending) are not "already labelled" nor "may have been charged
 * (uncertain)": they are the run's own; after Done the estimate is what `plan` says.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { createApplication } from '../../../electron/application/create-application.js';
import type { Estimate } from '../../../electron/shared/contract/index.js';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../support/misbehaving-service.js';
import { cliEnv, lastJson, runCli } from '../../support/cli-run.js';
import { jpeg } from '../../support/synth-media.js';
import { appHome, untilScanned } from '../../support/app-home.js';

let app: Application | undefined;
let service: MisbehavingService | undefined;
let remove: (() => Promise<void>) | undefined;
afterEach(async () => {
  await app?.close();
  await service?.close();
  await remove?.();
  app = service = remove = undefined;
});

const FILES = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the Runs screen counts during and after a run', () => {
  it("counts the run's own files apart while it goes, and agrees with `plan` after Done", async () => {
    const { home, dir, remove: removeHome } = await appHome('run-estimate-live-');
    remove = removeHome;
    for (let i = 0; i < FILES; i++)
      await writeFile(join(dir, `p${i}.jpg`), await jpeg(64 + 8 * i, 48, i));
    service = await startMisbehavingService('none', { imageLatencyMs: 700 });
    app = await createApplication({
      transport: 'in-process',
      mediaBase: 'test://',
      env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
    });
    const h = app.handlers;
    await h['service.useHosted']({ baseUrl: service.url, apiKey: service.key });
    const folder = await h['folders.add']({ path: dir });
    await untilScanned(h, FILES);
    const scope = { solution: 'objects', folderIds: [folder.id] };
    const started = await h['runs.start']({
      ...scope,
      budget: null,
      hourBudget: null,
      retryUncertain: false,
    });
    // Mid-run: some files answered, some on their way (two at a time, 0.7 s each).
    const during: Estimate[] = [];
    for (let i = 0; i < 300; i++) {
      const state = await h['runs.current']({});
      if (state?.finishedAt !== null) break;
      if (state.completed >= 1 && service.count('POST', '/infer/image') > state.completed) {
        during.push(await h['runs.estimate'](scope));
      }
      await sleep(100);
    }
    expect(during.length).toBeGreaterThan(0);
    for (const e of during) {
      expect(e.uncertain).toBe(0);
      expect(e.alreadyLabelled).toBe(0);
      expect(e.inRun).toBeGreaterThan(0);
      expect((e.inRun ?? 0) + e.images).toBe(FILES);
    }
    const state = await h['runs.current']({});
    expect(state?.runKey).toBe(started.runKey);
    expect(state?.phase).toBe('done');
    expect(state?.labelled).toBe(FILES);
    const after = await h['runs.estimate'](scope);
    await app.close();
    app = undefined;
    // `plan` over the same library says the same.
    const plan = await runCli(
      ['plan', dir, '--service', service.url, '--json'],
      cliEnv(home, { LABELDESK_API_KEY: service.key }),
    );
    const planned = lastJson<{ uncertain: unknown[]; alreadyLabelled: number }>(plan.stdout);
    expect(after.uncertain).toBe(planned.uncertain.length);
    expect(after.alreadyLabelled).toBe(planned.alreadyLabelled);
    expect(after.uncertain).toBe(0);
    expect(after.inRun ?? 0).toBe(0);
    expect(after.alreadyLabelled).toBe(FILES);
    expect(after.images).toBe(0);
  }, 120_000);
});
