/**
 * Issue 23 §1 figures: `labeldesk label DIR --service URL --yes --json` (the compiled CLI, a
 * process of its own) against the misbehaving test service, once per misbehaviour, beside the same
 * run against the well-behaved service in the same bench run. Per misbehaviour: the CLI's peak RSS
 * (VmHWM from /proc, sampled every 20 ms) against the well-behaved run's, how far the call past
 * its deadline was held beyond it, the busiest second of polls and GET /key against the 250 ms
 * floor's rate, the frames LabelDesk accounted against the service's own count, and files
 * uploaded twice over two runs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import {
  startMisbehavingService,
  type Misbehaviour,
  type MisbehavingService,
} from '../test/support/misbehaving-service.js';
import { clip, jpeg } from '../test/support/synth-media.js';
import { fmt, printFigures, type Figure } from './report.js';

const CASES: readonly { name: Misbehaviour; media: 'image' | 'clip' }[] = [
  { name: 'huge-answer', media: 'image' },
  { name: 'endless-answer', media: 'image' },
  { name: 'trickle', media: 'image' },
  { name: 'million-detections', media: 'image' },
  { name: 'implausible-detections', media: 'image' },
  { name: 'retry-after-huge', media: 'image' },
  { name: 'poll-zero', media: 'clip' },
  { name: 'poll-huge', media: 'clip' },
  { name: 'result-and-error', media: 'clip' },
  // Each misbehaviour of the test service has its figures (issue 23), these three too.
  { name: 'retry-after-long', media: 'image' },
  { name: 'endless-result', media: 'clip' },
  { name: 'endless-catalog', media: 'image' },
];
/** The deadline floor given to the runs (LABELDESK_CALL_DEADLINE_S), so a trickle ends soon. */
const FLOOR_S = 5;
const UPLOAD_BYTES_PER_SECOND = 128 * 1024;

interface CliRun {
  peakRssMb: number;
  code: number | null;
  summary: { framesSpent?: number } | undefined;
  stderr: string;
}

function vmHwmKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function runLabel(dir: string, s: MisbehavingService, home: string): Promise<CliRun> {
  const cli = join(packageRoot(), 'bin', 'labeldesk.js');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LABELDESK_HOME: home,
    LABELDESK_API_KEY: s.key,
    LABELDESK_CALL_DEADLINE_S: String(FLOOR_S),
  };
  delete env.LABELDESK_EMBEDDED_ENGINE;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [cli, 'label', dir, '--service', s.url, '--yes', '--json'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, vmHwmKb(child.pid ?? 0))), 20);
    // A run that would never end is a figure too: killed after two minutes.
    const kill = setTimeout(() => child.kill('SIGKILL'), 120_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      clearTimeout(kill);
      const last = stdout.trim().split('\n').pop();
      let summary: CliRun['summary'];
      try {
        summary = last ? (JSON.parse(last) as CliRun['summary']) : undefined;
      } catch {
        summary = undefined;
      }
      resolve({ peakRssMb: peak / 1024, code, summary, stderr });
    });
  });
}

/** Most calls of `method path…` within any one second. */
function busiestSecond(s: MisbehavingService, method: string, prefix: string): number {
  const at = s.calls
    .filter((c) => c.method === method && c.path.startsWith(prefix))
    .map((c) => c.at);
  let most = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while ((at[i] as number) - (at[j] as number) >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

interface CaseResult {
  name: string;
  peakRssMb: number;
  overrunMs: number | null;
  pollsPerSecond: number;
  keysPerSecond: number;
  framesAccounted: number;
  framesCharged: number;
  uploadedTwice: number;
  code: number | null;
}

async function runCase(
  name: Misbehaviour,
  dir: string,
  uploadBytes: number,
  work: string,
): Promise<CaseResult> {
  const s = await startMisbehavingService(name, { trickleMs: 1000 });
  const home = await mkdtemp(join(work, 'home-'));
  try {
    const first = await runLabel(dir, s, home);
    const second = await runLabel(dir, s, home);
    // The call held past its deadline (trickle): how long beyond floor + upload allowance.
    const deadline = FLOOR_S * 1000 + Math.ceil((uploadBytes / UPLOAD_BYTES_PER_SECOND) * 1000);
    const held = s.calls.filter((c) => c.path.startsWith('/infer/')).map((c) => c.heldMs ?? 0);
    const longest = held.length ? Math.max(...held) : 0;
    return {
      name,
      peakRssMb: Math.max(first.peakRssMb, second.peakRssMb),
      overrunMs: longest > deadline ? longest - deadline : null,
      pollsPerSecond: busiestSecond(s, 'GET', '/jobs/'),
      keysPerSecond: busiestSecond(s, 'GET', '/key'),
      // A run stopped before anything was sent (a catalog past its cap) prints no summary: it
      // accounted nothing, which the service's own count then checks.
      framesAccounted: (first.summary?.framesSpent ?? 0) + (second.summary?.framesSpent ?? 0),
      framesCharged: s.charged,
      uploadedTwice: [...s.uploads.values()].filter((n) => n > 1).length,
      code: first.code,
    };
  } finally {
    await s.close();
  }
}

export async function benchMisbehaving(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'labeldesk-misbehaving-bench-'));
  try {
    const images = join(work, 'images');
    const clips = join(work, 'clips');
    await mkdir(images);
    await mkdir(clips);
    const photo = await jpeg(320, 240, 7);
    await writeFile(join(images, 'a.jpg'), photo);
    await clip(clips, 'walk.mp4', 3, '160x120', 10);
    const dirs = { image: images, clip: clips };
    const sizes = { image: photo.byteLength, clip: 0 };
    const baseline = await runCase('none', images, sizes.image, work);
    const baselineClip = await runCase('none', clips, sizes.clip, work);
    const figures: Figure[] = [
      {
        name: 'well-behaved service: peak RSS of label (image / clip)',
        value: `${fmt(baseline.peakRssMb)} / ${fmt(baselineClip.peakRssMb)} MB`,
      },
    ];
    for (const c of CASES) {
      const r = await runCase(c.name, dirs[c.media], sizes[c.media], work);
      const base = c.media === 'image' ? baseline : baselineClip;
      const extra = r.peakRssMb - base.peakRssMb;
      figures.push(
        {
          name: `${c.name}: peak RSS above the well-behaved run`,
          value: `${fmt(extra)} MB (${fmt(r.peakRssMb)} MB; exit ${r.code})`,
          goal: '≤ 150 MB',
          met: extra <= 150,
        },
        {
          name: `${c.name}: call held past its deadline`,
          value: r.overrunMs === null ? 'none past it' : `${fmt(r.overrunMs / 1000, 2)} s`,
          goal: '≤ 1 s',
          met: (r.overrunMs ?? 0) <= 1000,
        },
        {
          name: `${c.name}: busiest second of polls / GET /key (floor 250 ms: 4 per second, 240 per minute)`,
          value: `${r.pollsPerSecond} / ${r.keysPerSecond}`,
          goal: '≤ 5 in any second (4 waits of 250 ms)',
          met: r.pollsPerSecond <= 5 && r.keysPerSecond <= 5,
        },
        {
          name: `${c.name}: frames accounted / charged by the service (two runs)`,
          value: `${r.framesAccounted} / ${r.framesCharged}`,
          goal: 'equal',
          met: r.framesAccounted === r.framesCharged,
        },
        {
          name: `${c.name}: files uploaded twice`,
          value: String(r.uploadedTwice),
          goal: '0',
          met: r.uploadedTwice === 0,
        },
      );
    }
    figures.push({
      name: 'note',
      value: `answer caps: image answers 8 MB; clip results 8 MB here (60 s × 2 fps × 16 KB, at least 8 MB); deadline floor ${FLOOR_S} s for these runs`,
    });
    printFigures('misbehaving service (label, one process per run)', figures);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
