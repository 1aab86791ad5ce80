/**
 * Scale: `labeldesk plan DIR --service URL --json` over 100,000 small JPEGs in 1,000 folders
 * against a bare `find DIR -printf '%s %T@ %p\n'` walk of the same tree, both whole processes.
 * The first plan runs on a cold library (scan + hash + probe of every file), the later ones on the
 * same LABELDESK_HOME (warm: the scan reconciles and finds nothing new). Peak RSS comes from
 * `/usr/bin/time -f %M` when present, else from a wrapper that prints resourceUsage().maxRSS.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import { startChild } from './child-server.js';
import { fmt, printFigures, type Figure } from './report.js';

const FOLDERS = 1000;
const FILES_PER_FOLDER = 100;
const FILES = FOLDERS * FILES_PER_FOLDER;
const WARM_RUNS = 3;
/**
 * Cold plans (each on a fresh LABELDESK_HOME), interleaved with bare pipeline runs of the same
 * work, after one discarded run of each (the first of either pays for cold caches and a cold
 * SQLite/worker start-up alone): the median of three of each.
 */
const COLD_RUNS = 3;
const GOAL_COLD_RATIO = 2;
const GOAL_MS = 5000;
const GOAL_RATIO = 4;
const GOAL_RSS_MB = 400;
const KEY = 'ldk_bench_plan_key_0123456789abcdef';
const TIME = '/usr/bin/time';
const PRINT_RSS =
  "process.on('exit', () => process.stderr.write(`maxrss=${process.resourceUsage().maxRSS}\\n`));";

interface Timed {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
  maxRssMb: number | null;
  /** User + system CPU seconds of the process (with /usr/bin/time): steadier than wall time on a loaded machine. */
  cpuS: number | null;
}

/**
 * A whole process, spawn to exit. stdout is kept only when asked (find's 100k lines are drained
 * and dropped, as a shell would pipe them to /dev/null); peak RSS is measured when asked.
 */
function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; keepStdout?: boolean; rss?: boolean } = {},
): Promise<Timed> {
  const viaTime = options.rss === true && existsSync(TIME);
  // Without /usr/bin/time the (node) command prints its own maxRSS, in KB, as it exits.
  const wrapped: [string, string[]] = !options.rss
    ? [command, [...args]]
    : viaTime
      ? [TIME, ['-f', 'maxrss=%M cpu=%U+%S', command, ...args]]
      : [command, ['--import', `data:text/javascript,${encodeURIComponent(PRINT_RSS)}`, ...args]];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(wrapped[0], wrapped[1], {
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (options.keepStdout) stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const m = /maxrss=(\d+)(?: cpu=([\d.]+)\+([\d.]+))?\s*$/.exec(stderr);
      resolve({
        ms,
        code,
        stdout,
        stderr,
        maxRssMb: m?.[1] ? Number(m[1]) / 1024 : null,
        cpuS: m?.[2] && m[3] ? Number(m[2]) + Number(m[3]) : null,
      });
    });
  });
}

/** A valid JPEG made distinct by a comment segment right after SOI: same pixels, other bytes. */
function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text);
  const marker = Buffer.from([0xff, 0xfe, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), marker, body, jpeg.subarray(2)]);
}

/** 100,000 distinct small JPEGs in 1,000 folders under `tree`, made once and reused. */
export async function ensureTree(tree: string): Promise<string> {
  if (existsSync(join(tree, '.complete'))) return tree;
  process.stdout.write(`(creating ${FILES} small JPEGs under ${tree}, once)\n`);
  await rm(tree, { recursive: true, force: true });
  const base = await sharp({
    create: { width: 16, height: 12, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  for (let d = 0; d < FOLDERS; d++) {
    // Ten top-level groups, like the library bench's tree: a two-level tree, not 1,000 siblings.
    const dir = join(tree, `group-${d % 10}`, `folder-${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES_PER_FOLDER }, (_, f) =>
        writeFile(join(dir, `img-${f}.jpg`), withComment(base, `bench ${d}/${f}`)),
      ),
    );
  }
  await writeFile(join(tree, '.complete'), '');
  return tree;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

interface PlanJson {
  found: number;
  toLabel: { images: number };
  refused: unknown[];
}

export async function benchPlan(): Promise<void> {
  const root = packageRoot();
  const tree = await ensureTree(join(root, '.cache', 'bench-plan'));
  const cli = join(root, 'bin/labeldesk.js');
  const data = await mkdtemp(join(tmpdir(), 'labeldesk-bench-plan-svc-'));
  const homes: string[] = [];
  const service = await startChild(cli, [
    'serve',
    '--port',
    '0',
    '--data',
    data,
    '--engine',
    'null',
    '--key',
    `${KEY}:10000000`,
    '--hour-frames',
    '10000000',
  ]);
  const load0 = loadavg()[0] ?? 0;
  try {
    const find = () => run('find', [tree, '-type', 'f', '-printf', '%s %T@ %p\n'], { rss: true });
    const bareScript = join(root, 'build/bench/bare-plan-pipeline.js');
    const bare = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'labeldesk-bench-plan-bare-'));
      try {
        return await run(process.execPath, [bareScript, tree, join(dir, 'bare.db')], {
          keepStdout: true,
          rss: true,
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    };
    const plan = (home: string) =>
      run(process.execPath, [cli, 'plan', tree, '--service', service.url, '--json'], {
        env: { ...process.env, LABELDESK_API_KEY: KEY, LABELDESK_HOME: home },
        keepStdout: true,
        rss: true,
      });
    const check = (r: Timed): boolean => {
      try {
        const j = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as PlanJson;
        if (r.code === 0 && j.found === FILES && j.toLabel.images === FILES) return true;
      } catch {
        // reported below
      }
      process.stderr.write(`plan run: exit ${r.code}\n${r.stderr}\n${r.stdout.slice(0, 2000)}\n`);
      return false;
    };
    await find(); // the same warm dentry and page cache for both sides
    const freshHome = async () => {
      homes.push(await mkdtemp(join(tmpdir(), 'labeldesk-bench-plan-home-')));
      return homes.at(-1) as string;
    };
    // Warm-up, discarded: one of each, so neither side's median holds a cold first run.
    await bare();
    await plan(await freshHome());
    const bares: Timed[] = [];
    const colds: Timed[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      bares.push(await bare());
      colds.push(await plan(await freshHome()));
    }
    const bareOk = bares.every((b) => b.code === 0 && b.stdout.trim() === String(FILES));
    const coldOk = colds.every(check);
    const home = homes.at(-1) as string;
    const warm: Timed[] = [];
    const finds: Timed[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      finds.push(await find());
      warm.push(await plan(home));
    }
    const warmOk = warm.every(check);
    const findMs = median(finds.map((f) => f.ms));
    const cpu = (t: Timed) => (t.cpuS === null ? '' : `; ${fmt(t.cpuS, 2)} s CPU`);
    const warmMs = median(warm.map((w) => w.ms));
    const coldMs = median(colds.map((c) => c.ms));
    const bareMs = median(bares.map((b) => b.ms));
    const cpuOf = (ts: Timed[]) => median(ts.map((t) => t.cpuS ?? NaN));
    const cpuRatio = fmt(cpuOf(colds) / cpuOf(bares), 2);
    const rss = (t: Timed) => t.maxRssMb ?? NaN;
    const warmRss = Math.max(...warm.map(rss));
    const figure = (
      label: string,
      ms: number,
      peak: number,
      ok: boolean,
      cpuNote: string,
    ): Figure[] => [
      {
        name: `${label}: labeldesk plan --json (process)`,
        value: `${fmt(ms, 0)} ms${cpuNote}${ok ? '' : ' (RUN FAILED)'}`,
        goal: `≤ ${GOAL_MS} ms`,
        met: ok && ms <= GOAL_MS,
      },
      {
        name: `${label}: ratio plan / find`,
        value: fmt(ms / findMs, 2),
        goal: `≤ ${GOAL_RATIO}`,
        met: ok && ms / findMs <= GOAL_RATIO,
      },
      {
        name: `${label}: peak RSS of the plan process`,
        value: `${fmt(peak, 0)} MB`,
        goal: `≤ ${GOAL_RSS_MB} MB`,
        met: peak <= GOAL_RSS_MB,
      },
    ];
    printFigures(
      `Plan at scale (${FILES} small JPEGs in ${FOLDERS} folders, warm page cache, null-engine service)`,
      [
        {
          name: "bare `find DIR -type f -printf '%s %T@ %p\\n'` (process)",
          value: `${fmt(findMs, 0)} ms (median of ${WARM_RUNS}; runs ${finds.map((f) => `${fmt(f.ms, 0)}${cpu(f)}`).join(', ')})`,
        },
        {
          name: 'bare pipeline: walk, stat, read, sha256, one SQLite transaction (process)',
          value: `${fmt(bareMs, 0)} ms (median of ${COLD_RUNS}; runs ${bares.map((b) => `${fmt(b.ms, 0)}${cpu(b)}`).join(', ')})${bareOk ? '' : ' (RUN FAILED)'}`,
        },
        ...figure(
          `first run, cold library (scan + hash + probe; median of ${COLD_RUNS})`,
          coldMs,
          Math.max(...colds.map(rss)),
          coldOk,
          `; runs ${colds.map((c) => `${fmt(c.ms, 0)}${cpu(c)}`).join(', ')}`,
        ),
        {
          name: 'first run, cold library: ratio plan / bare pipeline (wall; CPU)',
          value: `${fmt(coldMs / bareMs, 2)}; CPU ${cpuRatio}`,
          goal: `≤ ${GOAL_COLD_RATIO}`,
          met: coldOk && coldMs / bareMs <= GOAL_COLD_RATIO,
        },
        ...figure(
          `second run on, warm library (reconcile only; median of ${WARM_RUNS})`,
          warmMs,
          warmRss,
          warmOk,
          `; runs ${warm.map((w) => `${fmt(w.ms, 0)}${cpu(w)}`).join(', ')}`,
        ),
        {
          name: 'load average (1 min) before / after',
          value: `${fmt(load0, 2)} / ${fmt(loadavg()[0] ?? 0, 2)}`,
        },
      ],
    );
  } finally {
    await service.stop();
    await rm(data, { recursive: true, force: true });
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }
}

// `node build/bench/plan-bench.js` runs this section alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) await benchPlan();
