/**
 * `labeldesk app` quits within 3 s of SIGTERM or SIGINT in every state of a 20k-file library: the
 * first scan, the start-up rescan, hashing, labelling, a proxy being made. After each, the library
 * passes integrity_check, a cut walk has marked nothing missing, and the next start resumes: the
 * hashing finishes, the run labels the rest, and the key was charged once per file.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridge, type BridgeClient } from '../../support/bridge-client.js';
import {
  cliEnv,
  cliHome,
  lastJson,
  runCli,
  startCli,
  type CliProcess,
} from '../../support/cli-run.js';
import {
  assertFreshBuild,
  integrityOf,
  keyStatus,
  queryLibrary,
  waitFor,
} from '../../support/crash-cli.js';
import { cachedTinyPhotos, libraryAt, type LibraryStage } from '../../support/large-library.js';
import { QUIT_WITHIN_MS, quitTimed } from '../../support/quit-timing.js';
import { clip } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

const PHOTOS = 20_000;
const KEY = 'ldk_app_quit_key_000001';
const IMAGE_COST = 4; // objects
const LABELLED = 300;

let tmp: { dir: string; remove: () => Promise<void> };
let photos: string;
const homes: (() => Promise<void>)[] = [];
const running = new Set<CliProcess>();

interface Launched {
  run: CliProcess;
  bridge: BridgeClient;
}

async function homeAt(folder: string, stage: LibraryStage): Promise<string> {
  const { home, remove } = await cliHome();
  homes.push(remove);
  await libraryAt(home, folder, stage);
  return home;
}

const appEnv = (home: string) =>
  cliEnv(home, { LABELDESK_EMBEDDED_ENGINE: 'null', LABELDESK_API_KEY: KEY });

async function launch(home: string): Promise<Launched> {
  const run = startCli(['app', '--port', '0', '--no-open'], appEnv(home));
  running.add(run);
  void run.exited.then(() => running.delete(run));
  const [, url] = await run.waitForOutput(/LabelDesk is running at (\S+)/, { timeoutMs: 60_000 });
  return { run, bridge: await openBridge(url as string) };
}

const count = (home: string, where: string) =>
  queryLibrary<{ n: number }>(home, `SELECT count(*) AS n FROM media WHERE ${where}`)[0]?.n ?? 0;

async function expectQuick(app: Launched, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const { ms, code } = await quitTimed(app.run, signal);
  expect(ms, app.run.stderr()).toBeLessThan(QUIT_WITHIN_MS);
  expect(code, app.run.stderr()).toBe(0);
}

/** GET /key of the embedded service now (it restarts on another port when a run starts or ends). */
const results = (home: string) =>
  queryLibrary<{ n: number }>(home, 'SELECT count(*) AS n FROM results')[0]?.n ?? 0;

/** What the key has left, read by a short-lived `labeldesk status` on the same library. */
async function remainingAfterQuit(home: string): Promise<number> {
  const status = await runCli(['status', '--json'], appEnv(home));
  return lastJson<{ remaining: number }>(status.stdout).remaining;
}

async function remainingFrames(bridge: BridgeClient): Promise<number> {
  let remaining: number | undefined;
  await waitFor('the service answering GET /key', async () => {
    const state = (await bridge.call('service.state', {})).result as
      { status: string; baseUrl: string } | undefined;
    if (state?.status !== 'online') return false;
    remaining = await keyStatus(state.baseUrl, KEY).then(
      (k) => k.remaining,
      () => undefined,
    );
    return remaining !== undefined;
  });
  return remaining as number;
}

beforeAll(async () => {
  assertFreshBuild(['electron/application', 'electron/core/library', 'electron/cli']);
  tmp = await tempDir('labeldesk-app-quit-');
  photos = await cachedTinyPhotos(PHOTOS);
}, 120_000);

afterAll(async () => {
  for (const run of running) run.child.kill('SIGKILL');
  for (const remove of homes) await remove();
  await tmp?.remove();
});

describe('labeldesk app quits within 3 s', () => {
  it('during the first scan of a new folder (and the cut walk marks nothing)', async () => {
    const home = await homeAt(photos, 'added');
    const app = await launch(home);
    await waitFor('the first scan under way', () => count(home, '1') > 0, 30_000);
    const seen = count(home, '1');
    await expectQuick(app);
    expect(integrityOf(home)).toBe('ok');
    expect(count(home, "status = 'missing'")).toBe(0);
    if (seen < PHOTOS) {
      const [folder] = queryLibrary<{ last: number | null }>(
        home,
        'SELECT last_scan_at AS last FROM folders',
      );
      expect(folder?.last ?? null).toBeNull();
    }
  }, 120_000);

  it('during the start-up rescan of an existing library (1.5 s after start, as reported)', async () => {
    const home = await homeAt(photos, 'read');
    const app = await launch(home);
    await waitFor('the rescan under way', async () => {
      const folders = (await app.bridge.call('folders.list', {})).result as { scanning: boolean }[];
      return folders[0]?.scanning === true;
    });
    await expectQuick(app, 'SIGINT');
    expect(integrityOf(home)).toBe('ok');
    expect(count(home, "status = 'missing'")).toBe(0);
    expect(count(home, 'content_hash IS NOT NULL')).toBe(PHOTOS);
  }, 120_000);

  let readHome: string;
  it('while hashing; the next start hashes the rest', async () => {
    readHome = await homeAt(photos, 'scanned');
    let app = await launch(readHome);
    await waitFor(
      'hashing under way',
      () => count(readHome, 'content_hash IS NOT NULL') > 0,
      30_000,
    );
    await expectQuick(app);
    const hashed = count(readHome, 'content_hash IS NOT NULL');
    expect(hashed).toBeLessThan(PHOTOS);
    expect(integrityOf(readHome)).toBe('ok');
    app = await launch(readHome);
    await waitFor(
      'every file hashed',
      () => count(readHome, 'content_hash IS NOT NULL') === PHOTOS,
      90_000,
    );
    await expectQuick(app);
  }, 180_000);

  it('while labelling; the next run labels the rest and the key is charged once per file', async () => {
    const ids = queryLibrary<{ id: number }>(
      readHome,
      'SELECT id FROM media ORDER BY path LIMIT ?',
      LABELLED,
    ).map((r) => r.id);
    let app = await launch(readHome);
    const before = await remainingFrames(app.bridge);
    const start = { solution: 'objects', mediaIds: ids };
    const started = await app.bridge.call('runs.start', start);
    expect(started.ok, JSON.stringify(started.error)).toBe(true);
    await waitFor('labelling under way', () => labelled() >= 10);
    await expectQuick(app);
    expect(labelled()).toBeLessThan(LABELLED);
    expect(integrityOf(readHome)).toBe('ok');

    app = await launch(readHome);
    await remainingFrames(app.bridge);
    const restarted = await app.bridge.call('runs.start', start);
    expect(restarted.ok, JSON.stringify(restarted.error)).toBe(true);
    await waitFor(
      'the run over',
      async () => {
        const run = (await app.bridge.call('runs.current', {})).result as { phase: string } | null;
        return run?.phase === 'done';
      },
      60_000,
    );
    const spent = before - (await remainingFrames(app.bridge));
    const uncertain =
      queryLibrary<{ n: number }>(
        readHome,
        "SELECT count(DISTINCT media_id) AS n FROM submissions WHERE state = 'uncertain'",
      )[0]?.n ?? 0;
    expect(labelled() + uncertain).toBe(LABELLED);
    // Every labelled file paid once; a file cut in flight (uncertain) at most once, never resent.
    expect(spent).toBeGreaterThanOrEqual(IMAGE_COST * labelled());
    expect(spent).toBeLessThanOrEqual(IMAGE_COST * LABELLED);
    await expectQuick(app);

    function labelled(): number {
      return queryLibrary<{ n: number }>(readHome, 'SELECT count(*) AS n FROM results')[0]?.n ?? 0;
    }
  }, 180_000);

  it('during a clip job; the next run collects it without uploading or paying again', async () => {
    const clips = join(tmp.dir, 'job-clip');
    await mkdir(clips);
    await clip(clips, 'walk.mp4', 40, '320x240', 10);
    const home = await homeAt(clips, 'read');
    const [{ id }] = queryLibrary<{ id: number }>(home, 'SELECT id FROM media') as [{ id: number }];
    let app = await launch(home);
    const before = await remainingFrames(app.bridge);
    const start = { solution: 'objects', mediaIds: [id] };
    expect((await app.bridge.call('runs.start', start)).ok).toBe(true);
    const jobOf = () =>
      queryLibrary<{ job: string | null }>(home, 'SELECT job_id AS job FROM submissions')[0]?.job;
    await waitFor('the clip job created', () => Boolean(jobOf()), 60_000);
    const job = jobOf();
    await expectQuick(app);
    expect(integrityOf(home)).toBe('ok');
    // Quit while the job ran: nothing stored yet, the clip already paid for.
    expect(results(home)).toBe(0);
    const charged = before - (await remainingAfterQuit(home));
    expect(charged).toBeGreaterThan(0);

    app = await launch(home);
    await remainingFrames(app.bridge);
    expect((await app.bridge.call('runs.start', start)).ok).toBe(true);
    await waitFor('the clip labelled', () => count(home, '1') > 0 && results(home) === 1, 90_000);
    // The same job was polled again: one job, one charge.
    const jobs = queryLibrary<{ job: string }>(
      home,
      'SELECT DISTINCT job_id AS job FROM submissions WHERE job_id IS NOT NULL',
    );
    expect(jobs.map((j) => j.job)).toEqual([job]);
    expect(before - (await remainingFrames(app.bridge))).toBe(charged);
    await expectQuick(app);
  }, 240_000);

  it('while a proxy is made (ffmpeg killed, no partial file left)', async () => {
    const clips = join(tmp.dir, 'clips');
    await mkdir(clips);
    await clip(clips, 'long.avi', 60, '640x480', 25);
    const home = await homeAt(clips, 'read');
    const app = await launch(home);
    const [{ id }] = queryLibrary<{ id: number }>(home, 'SELECT id FROM media') as [{ id: number }];
    const playable = (await app.bridge.call('media.playable', { id })).result as { state: string };
    expect(playable.state).toBe('making');
    const proxies = join(home, 'proxies');
    await waitFor('the proxy being written', async () =>
      (await readdir(proxies).catch(() => [])).some((f) => f.includes('.partial.')),
    );
    await expectQuick(app);
    expect(await readdir(proxies)).toEqual([]);
  }, 120_000);
});
