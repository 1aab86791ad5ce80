/**
 * The five SDK clients, fetched from a running service at GET /sdk/{lang} and run for real: each as
 * a command (sh, python3, node), the node client as a library, and the browser client in Debian
 * Chromium from a page on another origin (so every call goes through CORS).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../electron/local-service/service.js';
// The typed client describes the JS clients too: they share one API.
import type * as Sdk from '../../resources/sdk/labeldesk.js';
import { launchChromium, servePageOrigin } from '../support/sdk-browser.js';
import { jsonOf, runCommand, type CommandResult } from '../support/sdk-exec.js';
import { writeClip, writeJpeg } from '../support/sdk-media.js';

const REPO = resolve(import.meta.dirname, '../..');
const KEY = `ldk_${randomBytes(16).toString('hex')}`;

let service: { url: string; close(): Promise<void> };
let dataDir: string;
let work: string;
let catalog: Sdk.Catalog;
let solution: string;
const media = { jpeg: '', clip: '', longClip: '' };
/** The service's own log, shown when a test fails so a 500 names its cause. */
const serviceLog: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'labeldesk-sdk-data-'));
  work = await mkdtemp(join(tmpdir(), 'labeldesk-sdk-'));
  // Per-frame latency keeps the long clip running long enough to be cancelled mid-way.
  service = await startLocalService({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    engine: 'null',
    latencyMs: 100,
    keys: [{ key: KEY, frames: 100_000 }],
    log: (line: string) => serviceLog.push(line),
  });
  [media.jpeg, media.clip, media.longClip] = await Promise.all([
    writeJpeg(join(work, 'photo.jpg')),
    writeClip(join(work, 'clip.mp4'), 2),
    writeClip(join(work, 'long.mp4'), 30, '160x120'),
  ]);
  catalog = (await (await fetch(`${service.url}/catalog`)).json()) as Sdk.Catalog;
  // The catalog is the contract: take a solution from it rather than hard-coding one.
  const video = catalog.solutions.filter(
    (s) => s.media.includes('image') && s.media.includes('video'),
  );
  video.sort((a, b) => a.frameCost.videoFrame - b.frameCost.videoFrame);
  solution = video[0]?.id ?? '';
  expect(solution).not.toBe('');
});

afterAll(async () => {
  const errors = serviceLog.filter((line) => /error/i.test(line));
  if (errors.length > 0) console.error(`service log:\n${errors.join('\n')}`);
  await service?.close();
  await Promise.all([dataDir, work].map((d) => d && rm(d, { recursive: true, force: true })));
});

/** Fetches a client from the service, checks it was stamped with the build's version, saves it. */
async function fetchClient(lang: Sdk.SdkLang, dir: string): Promise<string> {
  const entry = catalog.sdk.find((s) => s.lang === lang);
  expect(entry, `catalog.sdk lists ${lang}`).toBeDefined();
  const res = await fetch(`${service.url}${entry?.path ?? `/sdk/${lang}`}`);
  expect(res.status).toBe(200);
  const source = await res.text();
  expect(source).not.toContain('__LABELDESK_VERSION__');
  expect(source).toContain(catalog.version);
  const file = join(dir, entry?.filename ?? `labeldesk-${lang}`);
  await writeFile(file, source);
  return file;
}

/** Compiles the ts client as the brief for users says: the repo's tsc, --strict, NodeNext. */
async function compileTs(file: string, dir: string): Promise<string> {
  const out = join(dir, 'out');
  // An ESM package around source and output, so NodeNext emits (and node runs) an ES module.
  await mkdir(out, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  await writeFile(join(out, 'package.json'), '{"type":"module"}');
  const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
  const flags = ['--strict', '--target', 'es2022', '--module', 'nodenext'];
  flags.push('--moduleResolution', 'nodenext', '--types', 'node', '--outDir', out);
  const result = await runCommand(process.execPath, [tsc, ...flags, file], {}, { cwd: REPO });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return join(out, 'labeldesk.js');
}

interface Client {
  lang: Sdk.SdkLang;
  /** Saves the client and returns the argv prefix that runs it as a command. */
  prepare(dir: string): Promise<string[]>;
}

const CLIENTS: Client[] = [
  { lang: 'curl', prepare: async (dir) => ['sh', await fetchClient('curl', dir)] },
  { lang: 'python', prepare: async (dir) => ['python3', await fetchClient('python', dir)] },
  { lang: 'node', prepare: async (dir) => [process.execPath, await fetchClient('node', dir)] },
  {
    lang: 'browser',
    prepare: async (dir) => [process.execPath, await fetchClient('browser', dir)],
  },
  {
    lang: 'ts',
    prepare: async (dir) => [process.execPath, await compileTs(await fetchClient('ts', dir), dir)],
  },
];

const isJobStatus = (s: unknown) =>
  ['queued', 'running', 'succeeded', 'failed', 'cancelled'].includes(String(s));

describe.each(CLIENTS)('the $lang client as a command', ({ lang, prepare }) => {
  let argv: string[] = [];
  const run = (args: string[], apiKey: string = KEY): Promise<CommandResult> => {
    const [program = '', ...prefix] = argv;
    return runCommand(program, [...prefix, ...args], { BASE_URL: service.url, API_KEY: apiKey });
  };
  const ok = async <T>(args: string[], apiKey?: string): Promise<T> => {
    const result = await run(args, apiKey);
    expect(result.code, `${lang} ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return jsonOf<T>(result);
  };
  let videoJobId = '';

  beforeAll(async () => {
    const dir = join(work, lang);
    await mkdir(dir, { recursive: true });
    argv = await prepare(dir);
  }, 120_000);

  it('reads the catalog, health and key status', async () => {
    const cat = await ok<Sdk.Catalog>(['catalog']);
    expect(cat.version).toBe(catalog.version);
    expect(cat.solutions.map((s) => s.id)).toContain(solution);
    const health = await ok<Sdk.Health>(['health']);
    expect(health.status).toBe('ok');
    const key = await ok<Sdk.KeyStatus>(['key']);
    expect(key.audience).toBe('api_key');
    expect(key.remaining).toBeGreaterThan(0);
  });

  it('runs a solution on an image', async () => {
    const result = await ok<Sdk.ImageResult>(['image', media.jpeg, solution]);
    expect(Array.isArray(result.detections)).toBe(true);
    expect(result.image.width).toBe(320);
    expect(result.image.height).toBe(240);
    expect(result.credits.spent).toBeGreaterThan(0);
  });

  it('submits a clip, polls it to the end and prints the final job; then reads it by id', async () => {
    const job = await ok<Sdk.Job>(['video', media.clip, solution]);
    expect(job.status).toBe('succeeded');
    expect(job.result?.frames.length).toBeGreaterThan(0);
    expect(job.result?.durationMs).toBeGreaterThan(1500);
    videoJobId = job.jobId;
    const again = await ok<Sdk.Job>(['job', videoJobId]);
    expect(again).toMatchObject({ jobId: videoJobId, status: 'succeeded' });
  });

  it('cancels a running job', async () => {
    const form = new FormData();
    form.append('solution', solution);
    form.append('file', new Blob([await readFile(media.longClip)], { type: 'video/mp4' }), 'l.mp4');
    const res = await fetch(`${service.url}/infer/video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as Sdk.VideoSubmitted;
    const cancelled = await ok<Sdk.CancelResult>(['cancel', jobId]);
    expect(cancelled).toEqual({ jobId, status: 'cancelled' });
    expect(await ok<Sdk.Job>(['job', jobId])).toMatchObject({ jobId, status: 'cancelled' });
    // Cancelling a finished job is not an error: it answers with the job's own status.
    expect(isJobStatus((await ok<Sdk.CancelResult>(['cancel', videoJobId])).status)).toBe(true);
  });

  it('mints a session and exchanges it for a trial key', async () => {
    const session = await ok<Sdk.Session>(['session', randomUUID()]);
    expect(session.token).toMatch(/^lds_/);
    const trial = await ok<Sdk.TrialKey>(['sdk-key'], session.token);
    expect(trial.key).toMatch(/^ldt_/);
    expect(trial.frames).toBeGreaterThan(0);
    expect((await ok<Sdk.KeyStatus>(['key'], trial.key)).audience).toBe('trial_key');
  });

  it('fails with a non-zero exit and a message on stderr for HTTP errors', async () => {
    const badKey = await run(['key'], 'ldk_not_a_real_key_000000');
    expect(badKey.code).not.toBe(0);
    expect(badKey.stderr).toMatch(/401/);
    const apiKeyOnSdkKey = await run(['sdk-key']);
    expect(apiKeyOnSdkKey.code).not.toBe(0);
    expect(apiKeyOnSdkKey.stderr).toMatch(/403/);
    const unknownJob = await run(['job', randomUUID()]);
    expect(unknownJob.code).not.toBe(0);
    expect(unknownJob.stderr).toMatch(/404/);
    expect((await run(['image', media.jpeg, 'no-such-solution'])).code).not.toBe(0);
  });
});

describe('the node client as a library', () => {
  let LabelDeskClient: typeof Sdk.default;
  let LabelDeskError: typeof Sdk.LabelDeskError;

  beforeAll(async () => {
    const dir = join(work, 'node-lib');
    await mkdir(dir, { recursive: true });
    const file = await fetchClient('node', dir);
    const mod = (await import(pathToFileURL(file).href)) as typeof Sdk;
    ({ default: LabelDeskClient, LabelDeskError } = mod);
    expect(mod.VERSION).toBe(catalog.version);
  });

  it('calls every endpoint', async () => {
    const ld = new LabelDeskClient({ baseUrl: `${service.url}/`, apiKey: KEY });
    expect((await ld.catalog()).version).toBe(catalog.version);
    expect((await ld.health()).status).toBe('ok');
    expect(await ld.sdk('python')).toContain(catalog.version);
    expect((await ld.key()).audience).toBe('api_key');

    const fromPath = await ld.inferImage({ solution, file: media.jpeg });
    expect(fromPath.image.width).toBe(320);
    const bytes = await readFile(media.jpeg);
    const fromBytes = await ld.inferImage({ solution, file: bytes, filename: 'p.jpg' });
    expect(fromBytes.image.format).toBe(fromPath.image.format);
    const fromBlob = await ld.inferImage({ solution, file: new Blob([bytes]), filename: 'p.jpeg' });
    expect(fromBlob.image.height).toBe(240);

    const submitted = await ld.inferVideo({ solution, file: media.clip });
    expect(submitted).toMatchObject({ status: 'queued', pollUrl: `/jobs/${submitted.jobId}` });
    const seen: number[] = [];
    const job = await ld.waitForJob(submitted.jobId, { onProgress: (j) => seen.push(j.progress) });
    expect(job.status).toBe('succeeded');
    expect(job.result?.frames.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(1);
    expect((await ld.job(submitted.jobId)).status).toBe('succeeded');
    expect((await ld.cancel(submitted.jobId)).status).toBe('succeeded');

    const session = await ld.session(randomUUID());
    const trial = await new LabelDeskClient({
      baseUrl: service.url,
      apiKey: session.token,
    }).sdkKey();
    expect(trial.key).toMatch(/^ldt_/);
  });

  it('throws errors carrying status, code and message', async () => {
    const anon = new LabelDeskClient({ baseUrl: service.url, apiKey: 'ldk_not_a_real_key_000000' });
    const err = await anon.key().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LabelDeskError);
    expect(err).toMatchObject({
      status: 401,
      code: expect.any(String),
      message: expect.any(String),
    });
    const ld = new LabelDeskClient({ baseUrl: service.url, apiKey: KEY });
    await expect(
      ld.inferImage({ solution: 'no-such-solution', file: media.jpeg }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(ld.sdk('cobol' as Sdk.SdkLang)).rejects.toMatchObject({
      status: 404,
      code: 'unknown_sdk_language',
    });
  });

  it('stops waiting when the signal fires', async () => {
    const ld = new LabelDeskClient({ baseUrl: service.url, apiKey: KEY });
    const { jobId } = await ld.inferVideo({ solution, file: media.longClip });
    const controller = new AbortController();
    const waiting = ld.waitForJob(jobId, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(waiting).rejects.toBeDefined();
    expect((await ld.cancel(jobId)).status).toBe('cancelled');
  });
});

describe('the browser client in Chromium, from another origin', () => {
  it('reads the catalog, runs an image from a canvas and a clip to the end', async () => {
    // The page imports the client straight from the service, as a site embedding it would.
    const html = `<!doctype html><meta charset="utf-8"><title>LabelDesk SDK test</title>
      <script type="module">
        import LabelDeskClient from '${service.url}/sdk/browser';
        window.LabelDeskClient = LabelDeskClient;
      </script>`;
    const origin = await servePageOrigin(html, {
      'clip.mp4': { path: media.clip, type: 'video/mp4' },
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${origin.url}/`);
      await page.waitForFunction(() => 'LabelDeskClient' in window, undefined, { timeout: 10_000 });
      // No import() in here: vitest rewrites it, and this function runs in the page.
      const out = await page.evaluate(
        async ({ serviceUrl, apiKey, solution }) => {
          const Client = (window as unknown as { LabelDeskClient: typeof Sdk.default })
            .LabelDeskClient;
          const ld = new Client({ baseUrl: serviceUrl, apiKey });
          const cat = await ld.catalog();
          const key = await ld.key();
          const canvas = document.createElement('canvas');
          canvas.width = 200;
          canvas.height = 100;
          const g = canvas.getContext('2d');
          if (g) {
            g.fillStyle = '#2c7be5';
            g.fillRect(20, 20, 120, 60);
          }
          const png = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
          if (!png) throw new Error('canvas.toBlob gave nothing');
          const image = await ld.inferImage({ solution, file: png });
          const clip = await (await fetch('/files/clip.mp4')).blob();
          const submitted = await ld.inferVideo({ solution, file: clip });
          const job = await ld.waitForJob(submitted.jobId);
          const bad = await new Client({ baseUrl: serviceUrl, apiKey: 'ldk_not_a_real_key_000000' })
            .key()
            .then(
              () => null,
              (e: { status: number; code: string }) => ({ status: e.status, code: e.code }),
            );
          return { version: cat.version, audience: key.audience, image: image.image, job, bad };
        },
        { serviceUrl: service.url, apiKey: KEY, solution },
      );
      expect(problems).toEqual([]);
      expect(out.version).toBe(catalog.version);
      expect(out.audience).toBe('api_key');
      expect(out.image).toMatchObject({ width: 200, height: 100, format: 'png' });
      expect(out.job.status).toBe('succeeded');
      expect(out.job.result?.frames.length).toBeGreaterThan(0);
      expect(out.bad).toMatchObject({ status: 401 });
    } finally {
      await browser.close();
      await origin.close();
    }
  });
});
