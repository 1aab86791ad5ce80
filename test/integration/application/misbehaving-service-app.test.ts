/**
 * Issue 23 §1 through the application layer (the app's runs): against a service that asks for a
 * wait no run can hold (Retry-After: 10^9 s; pollIntervalMs 10^12), the run ends promptly,
 * "stopped" with the service's reason and the time it asked for, instead of polling or sleeping.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { createApplication } from '../../../electron/application/create-application.js';
import { TEST_HOME_MARKER } from '../../../electron/application/service-connection.js';
import type { RunState } from '../../../electron/shared/contract/index.js';
import {
  startMisbehavingService,
  type Misbehaviour,
  type MisbehavingService,
} from '../../support/misbehaving-service.js';
import { clip, jpeg } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';
import { untilScanned } from '../../support/app-home.js';

let app: Application | undefined;
let service: MisbehavingService | undefined;
let remove: (() => Promise<void>) | undefined;
afterEach(async () => {
  await app?.close();
  await service?.close();
  await remove?.();
  app = service = remove = undefined;
});

async function runAgainst(
  misbehaviour: Misbehaviour,
  media: 'image' | 'clip',
  before: (h: Application['handlers']) => Promise<unknown> = async () => undefined,
): Promise<RunState> {
  const tmp = await tempDir('misbehaving-app-');
  remove = tmp.remove;
  const home = join(tmp.dir, 'home');
  const dir = join(tmp.dir, 'media');
  await mkdir(home);
  await mkdir(dir);
  await writeFile(join(home, TEST_HOME_MARKER), '');
  if (media === 'image') await writeFile(join(dir, 'a.jpg'), await jpeg(320, 240, 3));
  else await clip(dir, 'walk.mp4', 3, '160x120', 10);
  service = await startMisbehavingService(misbehaviour, { trickleMs: 500 });
  app = await createApplication({
    transport: 'in-process',
    mediaBase: 'test://',
    env: { ...process.env, LABELDESK_HOME: home, LABELDESK_EMBEDDED_ENGINE: 'null' },
  });
  const h = app.handlers;
  await before(h);
  await h['service.useHosted']({ baseUrl: service.url, apiKey: service.key });
  const folder = await h['folders.add']({ path: dir });
  await untilScanned(h, 1);
  const started = await h['runs.start']({
    solution: 'objects',
    folderIds: [folder.id],
    budget: null,
    hourBudget: null,
    retryUncertain: false,
  });
  const end = Date.now() + 30_000;
  for (;;) {
    const state = await h['runs.current']({});
    if (state && state.runKey === started.runKey && state.finishedAt !== null) return state;
    if (Date.now() > end) throw new Error(`the run did not end: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the app's runs against waits no run can hold", () => {
  it('Retry-After of 10^9 s: the run stops at once, saying what the service asked', async () => {
    const state = await runAgainst('retry-after-huge', 'image');
    expect(state.phase).toBe('stopped');
    expect(state.detail).toMatch(/Paused: the service was busy and asked to wait 31\.7 years/);
    expect(service!.count('POST', '/infer/image')).toBe(1);
  }, 120_000);

  it('pollIntervalMs of 10^12: the clip is left open, not polled; the run says why', async () => {
    const state = await runAgainst('poll-huge', 'clip');
    expect(state.phase).toBe('stopped');
    expect(state.detail).toMatch(/asked to wait 31\.7 years before polling job 1/);
    expect(service!.count('GET', '/jobs/')).toBe(0);
  }, 120_000);
});

describe("the app's call deadline setting", () => {
  it("is stored, shown, and bounds the next run's calls (a trickling answer ends at 3 s)", async () => {
    const state = await runAgainst('trickle', 'image', async (h) => {
      expect(await h['service.callDeadline']({})).toEqual({ seconds: 120, source: 'default' });
      expect(await h['service.setCallDeadline']({ seconds: 3 })).toEqual({
        seconds: 3,
        source: 'setting',
      });
    });
    expect(state.phase).not.toBe('running');
    expect(state.uncertain).toBe(1);
    // The trickle alone would hold the call for minutes; the run ends at the 3 s deadline.
    expect(state.finishedAt! - state.startedAt).toBeLessThan(3000 + 2000);
    const h = app!.handlers;
    const problems = await h['runs.problems']({ solution: 'objects' });
    expect(JSON.stringify(problems)).toMatch(/took longer than the call's deadline of 3(\.\d)? s/);
    expect(await h['service.setCallDeadline']({ seconds: null })).toEqual({
      seconds: 120,
      source: 'default',
    });
  }, 120_000);
});
