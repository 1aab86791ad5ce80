/**
 * Library: the start-up scan of 100,000 files in 1,000 folders against a bare `find` walk, its
 * peak RSS in a child process, the hasher against raw `crypto.createHash` on ~1 GiB of files, and
 * the library sorted by review priority (priority-bench.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { hashFile, hashMany } from '../electron/core/library/hash-file.js';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import { benchPriority } from './priority-bench.js';
import { fmt, printFigures } from './report.js';

const FOLDERS = 1000;
const FILES_PER_FOLDER = 100;
const HASH_FILES = 16;
const HASH_FILE_BYTES = 64 * 1024 * 1024;
const RUNS = 3;

export async function benchLibrary(): Promise<void> {
  const cache = join(packageRoot(), '.cache');
  const tree = await ensureTree(join(cache, 'bench-tree'));
  const hashDir = await ensureHashFiles(join(cache, 'bench-hash'));

  // Warm the page cache and the dentry cache once, so both sides read the same warm tree.
  await findWalk(tree);
  await scanInChild(tree);
  const finds: number[] = [];
  const scans: ChildScan[] = [];
  const bare: ChildScan[] = [];
  for (let i = 0; i < RUNS; i++) {
    finds.push(await findWalk(tree));
    scans.push(await scanInChild(tree));
    bare.push(await scanInChild(tree, 'bare'));
  }
  const findMs = median(finds);
  const scan = scans.sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)] as ChildScan;
  const bareMs = median(bare.map((b) => b.ms));
  const ratio = scan.ms / findMs;
  const peakMB = Math.max(...scans.map((s) => s.maxRssKB)) / 1024;
  printFigures(
    `Library scan (${FOLDERS * FILES_PER_FOLDER} files in ${FOLDERS} folders, warm cache, median of ${RUNS})`,
    [
      { name: "bare `find -printf '%s %T@ %p\\n'`", value: `${fmt(findMs, 0)} ms` },
      {
        name: 'bare Node loop (await readdir, await stat, one at a time)',
        value: `${fmt(bareMs, 0)} ms`,
      },
      {
        name: 'scanFolder (child process, batches consumed)',
        value: `${fmt(scan.ms, 0)} ms, ${scan.count} entries, ${scan.issues} issues`,
        goal: '≤ 5000 ms',
        met: scan.ms <= 5000 && scan.count === FOLDERS * FILES_PER_FOLDER,
      },
      { name: 'ratio scan / find', value: fmt(ratio, 2), goal: '≤ 4', met: ratio <= 4 },
      {
        name: 'peak RSS of the scanning child',
        value: `${fmt(peakMB, 0)} MB`,
        goal: '≤ 400 MB',
        met: peakMB <= 400,
      },
    ],
  );

  const files = (await readdir(hashDir))
    .filter((f) => f.endsWith('.mp4'))
    .sort()
    .map((f) => join(hashDir, f));
  const bytes = HASH_FILES * HASH_FILE_BYTES;
  await rawHash(files); // warm
  const raw: number[] = [];
  const ours: number[] = [];
  const many: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    raw.push(await timed(() => rawHash(files)));
    ours.push(
      await timed(async () => {
        for (const f of files) await hashFile(f);
      }),
    );
    many.push(await timed(() => hashMany(files, { concurrency: 2 })));
  }
  // The digest alone over bytes already in memory: the ceiling of any hasher on this CPU.
  const inMemory = await readFile(files[0] as string);
  const digestMs = await timed(async () => {
    for (let i = 0; i < HASH_FILES; i++) createHash('sha256').update(inMemory).digest('hex');
  });
  const mbps = (ms: number) => bytes / 1024 / 1024 / (ms / 1000);
  const share = mbps(median(ours)) / mbps(median(raw));
  printFigures(`Library hashing (SHA-256, ${HASH_FILES} × 64 MiB, warm cache, median of ${RUNS})`, [
    {
      name: 'raw readFile + crypto.createHash, one file at a time',
      value: `${fmt(mbps(median(raw)), 0)} MiB/s`,
    },
    { name: 'hashFile, one file at a time', value: `${fmt(mbps(median(ours)), 0)} MiB/s` },
    {
      name: 'hashFile / raw',
      value: `${fmt(share * 100, 0)} %`,
      goal: '≥ 80 %',
      met: share >= 0.8,
    },
    { name: 'hashMany, concurrency 2', value: `${fmt(mbps(median(many)), 0)} MiB/s` },
    {
      name: 'SHA-256 of bytes already in memory (CPU ceiling, no I/O)',
      value: `${fmt(mbps(digestMs), 0)} MiB/s; hashFile reaches ${fmt((mbps(median(ours)) / mbps(digestMs)) * 100, 0)} % of it`,
    },
  ]);
  // The library sorted by "Review priority" at 100k files (also `npm run bench -- priority`).
  await benchPriority();
}

interface ChildScan {
  ms: number;
  count: number;
  issues: number;
  maxRssKB: number;
}

/** Runs the scan in a fresh Node process so its peak RSS is the scan's alone. */
async function scanInChild(tree: string, mode: 'scan' | 'bare' = 'scan'): Promise<ChildScan> {
  const scanModule = new URL('../electron/core/library/scan-folder.js', import.meta.url).href;
  const script = `
    import { readdir, stat } from 'node:fs/promises';
    import { join } from 'node:path';
    const { scanFolder } = await import(${JSON.stringify(scanModule)});
    const root = ${JSON.stringify(tree)};
    let count = 0, issues = 0;
    const t0 = performance.now();
    if (${JSON.stringify(mode)} === 'scan') {
      for await (const batch of scanFolder(root, { onIssue: () => issues++ })) count += batch.length;
    } else {
      const stack = [root];
      while (stack.length) {
        const dir = stack.pop();
        for (const d of await readdir(dir, { withFileTypes: true })) {
          const p = join(dir, d.name);
          if (d.isDirectory()) stack.push(p);
          else { await stat(p); count++; }
        }
      }
    }
    const ms = performance.now() - t0;
    process.stdout.write(JSON.stringify({ ms, count, issues, maxRssKB: process.resourceUsage().maxRSS }));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as ChildScan;
}

/** Wall time of `find` printing size, mtime and path of every file, its output read to the end. */
function findWalk(tree: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('find', [tree, '-type', 'f', '-printf', '%s %T@ %p\n'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`find exited ${code}`)),
    );
  });
}

async function rawHash(files: readonly string[]): Promise<void> {
  for (const f of files)
    createHash('sha256')
      .update(await readFile(f))
      .digest('hex');
}

async function ensureTree(tree: string): Promise<string> {
  if (existsSync(join(tree, '.complete'))) return tree;
  process.stdout.write(`(creating ${FOLDERS * FILES_PER_FOLDER} files under ${tree}, once)\n`);
  await rm(tree, { recursive: true, force: true });
  for (let d = 0; d < FOLDERS; d++) {
    // Ten top-level groups: a realistic two-level tree rather than 1,000 siblings.
    const dir = join(tree, `group-${d % 10}`, `folder-${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES_PER_FOLDER }, (_, f) =>
        writeFile(join(dir, `img-${f}.jpg`), randomBytes(64 + ((d * 7 + f) % 200))),
      ),
    );
  }
  await writeFile(join(tree, '.complete'), '');
  return tree;
}

async function ensureHashFiles(dir: string): Promise<string> {
  if (existsSync(join(dir, '.complete'))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < HASH_FILES; i++)
    await writeFile(join(dir, `clip-${i}.mp4`), randomBytes(HASH_FILE_BYTES));
  await writeFile(join(dir, '.complete'), '');
  return dir;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

// `node build/bench/library-bench.js` runs this section alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) await benchLibrary();
