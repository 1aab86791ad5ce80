/**
 * Keeping the service busy: `labeldesk label DIR --service URL --yes --json` over 500 small
 * distinct JPEGs against a bare keep-alive multipart client uploading the same files at the same
 * concurrency, both timed as whole processes (spawn → exit), against the same running service
 * (null engine), each process with its own key and each LabelDesk run with a fresh LABELDESK_HOME.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import { startChild } from './child-server.js';
import { reapedChildrenCpuSeconds } from './proc-cpu.js';
import { fmt, printFigures, type Figure } from './report.js';

const IMAGES = 500;
const RUNS = 5;
const LATENCIES = [20, 0] as const;
const GOAL = 0.9;

export interface ProcessRun {
  ms: number;
  /** CPU of the process (all its threads), user and system; NaN without /proc. */
  cpuMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Wall time of a whole process, spawn to exit, its output collected. */
export function timeProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const cpu0 = reapedChildrenCpuSeconds();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        ms: performance.now() - t0,
        // Only this child ends meanwhile (the runs are sequential; the service lives on).
        cpuMs: (reapedChildrenCpuSeconds() - cpu0) * 1000,
        code,
        stdout,
        stderr,
      }),
    );
  });
}

/** 500 distinct 64×64 JPEGs (gaussian noise, so no two share a content hash), made once. */
async function ensureImages(dir: string): Promise<string> {
  if (existsSync(join(dir, '.complete'))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < IMAGES; i++) {
    const bytes = await sharp({
      create: {
        width: 64,
        height: 64,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    await writeFile(join(dir, `img-${String(i).padStart(4, '0')}.jpg`), bytes);
  }
  await writeFile(join(dir, '.complete'), '');
  return dir;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

interface LabelJson {
  labelled: number;
  failed: unknown[];
  exitCode: number;
}

export async function benchLabel(): Promise<void> {
  const root = packageRoot();
  const images = await ensureImages(join(root, '.cache', 'bench-label'));
  const count = (await readdir(images)).filter((f) => f.endsWith('.jpg')).length;
  const cli = join(root, 'bin/labeldesk.js');
  const bareClient = join(root, 'build/bench/bare-label-client.js');
  const load0 = loadavg()[0] ?? 0;
  const figures: Figure[] = [];
  for (const latency of LATENCIES) {
    const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-label-'));
    const keys = Array.from(
      { length: 2 * (RUNS + 1) },
      (_, i) => `ldk_bench_label_${latency}_${i}_0123456789abcdef`,
    );
    const service = await startChild(cli, [
      'serve',
      '--port',
      '0',
      '--data',
      data,
      '--engine',
      'null',
      '--latency-ms',
      String(latency),
      ...keys.flatMap((k) => ['--key', `${k}:10000000`]),
      '--hour-frames',
      '10000000',
    ]);
    try {
      const catalog = (await (await fetch(`${service.url}/catalog`)).json()) as {
        limits: { maxConcurrentRequests: number };
      };
      const concurrency = catalog.limits.maxConcurrentRequests;
      let k = 0;
      const labelRun = async () => {
        const home = await mkdtemp(join(tmpdir(), 'labeldesk-bench-home-'));
        try {
          const run = await timeProcess(
            process.execPath,
            [cli, 'label', images, '--service', service.url, '--yes', '--json'],
            { ...process.env, LABELDESK_API_KEY: keys[k++], LABELDESK_HOME: home },
          );
          const json = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as LabelJson;
          const ok = run.code === 0 && json.labelled === count && json.failed.length === 0;
          if (!ok)
            process.stderr.write(`label run: exit ${run.code}\n${run.stderr}\n${run.stdout}`);
          return { ms: run.ms, cpuMs: run.cpuMs, ok };
        } finally {
          await rm(home, { recursive: true, force: true });
        }
      };
      const bareRun = async () => {
        const run = await timeProcess(process.execPath, [
          bareClient,
          service.url,
          keys[k++] ?? '',
          String(concurrency),
          images,
        ]);
        const json = JSON.parse(run.stdout.trim() || '{}') as { statuses?: Record<string, number> };
        const ok = run.code === 0 && json.statuses?.['200'] === count;
        if (!ok) process.stderr.write(`bare run: exit ${run.code}\n${run.stderr}\n${run.stdout}`);
        return { ms: run.ms, cpuMs: run.cpuMs, ok };
      };
      // One untimed round each warms the page cache and the service's own start-up paths.
      await bareRun();
      await labelRun();
      const bare: number[] = [];
      const ours: number[] = [];
      const bareCpu: number[] = [];
      const ourCpu: number[] = [];
      let allOk = true;
      for (let i = 0; i < RUNS; i++) {
        const b = await bareRun();
        const l = await labelRun();
        bare.push(b.ms);
        ours.push(l.ms);
        bareCpu.push(b.cpuMs);
        ourCpu.push(l.cpuMs);
        allOk &&= b.ok && l.ok;
      }
      const bareMs = median(bare);
      const ourMs = median(ours);
      const ratio = bareMs / ourMs;
      const floor = (count * latency) / concurrency;
      figures.push(
        {
          name: `latency ${latency} ms — bare keep-alive multipart client (process, spawn → exit)`,
          value: `${fmt(bareMs, 0)} ms (${fmt((count / bareMs) * 1000, 0)} images/s; runs ${bare.map((x) => fmt(x, 0)).join(', ')}${latency ? `; the latency floor alone is ${fmt(floor, 0)} ms` : ''})`,
        },
        {
          name: `latency ${latency} ms — labeldesk label --service (process, fresh LABELDESK_HOME)`,
          value: `${fmt(ourMs, 0)} ms (${fmt((count / ourMs) * 1000, 0)} images/s; runs ${ours.map((x) => fmt(x, 0)).join(', ')})`,
        },
        {
          // Steadier than wall time on a shared machine: the work each client does per file.
          name: `latency ${latency} ms — CPU per file, bare / labeldesk (process start included)`,
          value: `${fmt(median(bareCpu) / count, 2)} / ${fmt(median(ourCpu) / count, 2)} ms`,
        },
        {
          name: `latency ${latency} ms — ratio bare / labeldesk`,
          value: `${fmt(ratio, 2)}${allOk ? '' : ' (SOME RUNS FAILED)'}`,
          goal: latency ? `≥ ${GOAL}` : `≥ ${GOAL} (pure client overhead; reported)`,
          met: ratio >= GOAL && allOk,
        },
      );
    } finally {
      await service.stop();
      await rm(data, { recursive: true, force: true });
    }
  }
  const load1 = loadavg()[0] ?? 0;
  figures.push({
    name: 'load average (1 min) before / after',
    value: `${fmt(load0, 2)} / ${fmt(load1, 2)}`,
  });
  printFigures(
    `Keeping the service busy (${count} distinct 64×64 JPEGs, null engine, concurrency = catalog's maxConcurrentRequests, median of ${RUNS})`,
    figures,
  );
}

// `node build/bench/label-bench.js` runs this section alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) await benchLabel();
