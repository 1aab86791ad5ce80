/**
 * kill -9 of `labeldesk label` in the middle of a batch, several times, then runs to completion.
 * The fault proxy sits between the CLI and the service only to count uploads: it reads a request
 * whole before forwarding it and finishes the forwarded call even when the client is gone, so
 * every upload the service answered 200 is exactly one charge, and its size names its file. Any
 * other answer is free: the service refuses an upload past the token's concurrency (429), and a
 * killed run's calls may still be running when the next run starts sending.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertFreshBuild,
  integrityOf,
  keyStatus,
  queryLibrary,
  runCli,
  startCli,
  waitFor,
  writeImages,
} from '../../support/crash-cli.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';
import { tempDir } from '../../support/temp-dir.js';

const KEY = 'ldk_crash_label_key_0001';
const GRANT = 100_000;
const IMAGES = 60;
const IMAGE_COST = 4; // objects
const KILL_ROUNDS = 3;

let tmp: { dir: string; remove: () => Promise<void> };
let serve: ServeProcess;
let proxy: FaultProxy;
let mediaDir: string;
let home: string;
let bySize: Map<number, string>;

beforeAll(async () => {
  assertFreshBuild(['electron/core/runner', 'electron/core/store', 'electron/core/service']);
  tmp = await tempDir('labeldesk-crash-label-');
  mediaDir = join(tmp.dir, 'photos');
  home = join(tmp.dir, 'home');
  await mkdir(mediaDir);
  bySize = await writeImages(mediaDir, IMAGES);
  serve = await runServe([
    '--data',
    join(tmp.dir, 'service'),
    '--engine',
    'null',
    '--latency-ms',
    '150',
    '--key',
    `${KEY}:${GRANT}`,
  ]);
  proxy = await startFaultProxy(serve.url);
});

afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
  await tmp?.remove();
});

const env = () => ({ LABELDESK_HOME: home, LABELDESK_API_KEY: KEY });
const labelArgs = (...extra: string[]) => [
  'label',
  mediaDir,
  '--service',
  proxy.url,
  '--yes',
  '--json',
  ...extra,
];
const uploads = () =>
  proxy.requests.filter((r) => r.method === 'POST' && r.path === '/infer/image');
const forwardedUploads = () => uploads().filter((r) => r.forwarded);
const chargedUploads = () => forwardedUploads().filter((r) => r.status === 200);

/** Charged uploads per file name (an upload's size minus the fixed multipart overhead). */
function chargesPerFile(): Map<string, number> {
  const fwd = chargedUploads();
  const overhead = Math.min(...fwd.map((r) => r.bodyBytes)) - Math.min(...bySize.keys());
  const counts = new Map<string, number>();
  for (const r of fwd) {
    const name = bySize.get(r.bodyBytes - overhead);
    if (!name) throw new Error(`an upload of ${r.bodyBytes} bytes matches no file`);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);

describe('labeldesk label under kill -9', () => {
  it('keeps the library sound, labels every image once, and never pays twice unasked', async () => {
    const inFlightAtKills = new Set<string>();
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const before = forwardedUploads().length;
      const run = startCli(labelArgs(), env());
      // Somewhere in the batch: after 1–8 more uploads reached the service, plus up to 150 ms.
      const target = before + 1 + Math.floor(Math.random() * 8);
      await waitFor(`upload ${target}`, () => forwardedUploads().length >= target);
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      run.child.kill('SIGKILL');
      const exit = await run.exited;
      expect(exit.signal, run.stderr()).toBe('SIGKILL');

      expect(integrityOf(home)).toBe('ok');
      // Files whose request was on its way when the process died.
      for (const row of queryLibrary<{ path: string }>(
        home,
        `SELECT m.path FROM submissions s JOIN media m ON m.id = s.media_id
         WHERE s.state = 'sending'`,
      ))
        inFlightAtKills.add(base(row.path));
    }
    const labelledBeforeRetry = queryLibrary<{ n: number }>(
      home,
      'SELECT count(*) AS n FROM results',
    )[0]?.n;
    expect(labelledBeforeRetry).toBeLessThan(IMAGES);
    expect(inFlightAtKills.size).toBeGreaterThan(0);

    // Run to completion without asking for resends: the in-flight files are reported, not resent.
    // The calls of the last killed run finish at the service without it (the proxy sees to it).
    await waitFor('the killed runs’ calls to be answered', () =>
      forwardedUploads().every((r) => r.status !== undefined),
    );
    const chargedBefore = chargesPerFile();
    const plain = await runCli(labelArgs(), env());
    const summary = JSON.parse(plain.stdout.trim()) as {
      labelled: number;
      uncertain: { path: string; code: string }[];
      failed: unknown[];
      exitCode: number;
    };
    const uncertain = new Set(summary.uncertain.map((u) => base(u.path)));
    expect(uncertain).toEqual(inFlightAtKills);
    expect(summary.failed).toEqual([]);
    expect(plain.code).toBe(1); // uncertain files are a reason to look, not success
    for (const name of uncertain) expect(chargesPerFile().get(name)).toBe(chargedBefore.get(name));

    // Only --retry-uncertain sends them again.
    const retry = await runCli(labelArgs('--retry-uncertain'), env());
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout.trim())).toMatchObject({
      labelled: uncertain.size,
      uncertain: [],
      failed: [],
    });
    // And a run after that has nothing left to send.
    const sentBefore = uploads().length;
    const again = await runCli(labelArgs(), env());
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ labelled: 0, reused: IMAGES });
    expect(uploads().length).toBe(sentBefore);

    // The library: sound, every image labelled, exactly one finished submission per image.
    expect(integrityOf(home)).toBe('ok');
    const perImage = queryLibrary<{ path: string; results: number; done: number }>(
      home,
      `SELECT m.path,
         (SELECT count(*) FROM results r WHERE r.content_hash = m.content_hash) AS results,
         (SELECT count(*) FROM submissions s
           WHERE s.content_hash = m.content_hash AND s.state = 'done') AS done
       FROM media m ORDER BY m.path`,
    );
    expect(perImage).toHaveLength(IMAGES);
    for (const row of perImage) expect(row, row.path).toMatchObject({ results: 1, done: 1 });

    // The service: one charge per forwarded upload; a file charged twice only if the user asked.
    const charges = chargesPerFile();
    expect(charges.size).toBe(IMAGES);
    const twice = [...charges].filter(([, n]) => n > 1).map(([name]) => name);
    for (const [name, n] of charges) expect(n, name).toBeLessThanOrEqual(2);
    for (const name of twice) expect(uncertain.has(name), name).toBe(true);
    const spent = GRANT - (await keyStatus(serve.url, KEY)).remaining;
    // A forwarded upload answered otherwise (429 past the concurrency, say) cost nothing.
    expect(spent).toBe(chargedUploads().length * IMAGE_COST);
    expect(spent).toBe((IMAGES + twice.length) * IMAGE_COST);
    expect(spent).toBeLessThanOrEqual((IMAGES + uncertain.size) * IMAGE_COST);

    // The ledger: every labelled image once; what the service charged beyond it is exactly the
    // lost answers of the uncertain files that were then retried.
    const ledger = queryLibrary<{ frames: number; rows: number }>(
      home,
      'SELECT coalesce(sum(frames), 0) AS frames, count(*) AS rows FROM frames_ledger',
    )[0];
    expect(ledger).toEqual({ frames: IMAGES * IMAGE_COST, rows: IMAGES });
    expect(spent - (ledger?.frames ?? 0)).toBe(twice.length * IMAGE_COST);
  });
});
