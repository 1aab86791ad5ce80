/**
 * Watching: time to `ready` and RSS of our chokidar-based watcher on 10k and 100k files (folders
 * of 1,000), against a bare readdir + lstat walk and the fast scanner (`scanFolder`) in the same
 * run; chokidar's defaults on 10k, and one chokidar watcher per root with files ignored (the
 * issue's first approach), for reference. Each configuration runs in its own process.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageRoot } from '../electron/node-lib/app-paths.js';
import { type Figure, fmt, printFigures } from './report.js';
import type { WatchChildResult, WatchMode } from './watch-child.js';

const FILES_PER_FOLDER = 1000;
const RUNS = 3;
const READY_GOAL_MS = 3000;
const RSS_GOAL_MB = 150;

export async function benchWatch(): Promise<void> {
  const cache = join(packageRoot(), '.cache');
  for (const folders of [10, 100]) {
    const tree = await ensureWatchTree(join(cache, `bench-watch-${folders}k`), folders);
    await inChild('walk', tree); // warm the dentry and inode caches for every configuration
    const median3 = async (mode: WatchMode) => {
      const runs: WatchChildResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await inChild(mode, tree));
      return runs.sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)] as WatchChildResult;
    };
    const walk = await median3('walk');
    const scan = await median3('scan');
    const ours = await median3('watch');
    const root = await median3('chokidar-root');
    const defaults = folders === 10 ? await inChild('chokidar-default', tree) : undefined;
    const big = folders === 100;
    const figures: Figure[] = [
      { name: 'bare readdir + lstat walk', value: describe(walk) },
      { name: 'scanFolder (fast scanner)', value: describe(scan) },
      {
        name: 'watchFolders: time to ready',
        value: `${fmt(ours.ms, 0)} ms (CPU ${fmt(ours.cpuMs, 0)} ms), ${ours.watches} inotify watches`,
        ...(big && { goal: `≤ ${READY_GOAL_MS} ms`, met: ours.ms <= READY_GOAL_MS }),
      },
      {
        name: 'watchFolders: RSS above baseline at ready (peak)',
        value: `${fmt(ours.rssMB, 0)} MB (${fmt(ours.peakMB, 0)} MB)`,
        ...(big && { goal: `≤ ${RSS_GOAL_MB} MB`, met: ours.peakMB <= RSS_GOAL_MB }),
      },
      {
        name: 'watchFolders: a new file reported after (write-finish window 400 ms)',
        value: `${fmt(ours.pickupMs ?? NaN, 0)} ms`,
      },
      { name: 'ratio watchFolders / bare walk', value: ratios(ours, walk) },
      { name: 'ratio watchFolders / scanFolder', value: ratios(ours, scan) },
      { name: 'chokidar, one watcher per root, files ignored', value: describe(root) },
      { name: 'ratio that / watchFolders', value: ratios(root, ours) },
    ];
    if (defaults)
      figures.push(
        { name: 'chokidar defaults (a watch per file)', value: describe(defaults) },
        { name: 'ratio that / watchFolders', value: ratios(defaults, ours) },
      );
    printFigures(
      `Watching ${folders * FILES_PER_FOLDER} files (${folders} folders × ${FILES_PER_FOLDER}, warm cache, each in its own process, median of ${RUNS})`,
      figures,
    );
  }
}

function describe(r: WatchChildResult): string {
  const watches = r.watches >= 0 ? `, ${r.watches} inotify watches` : '';
  return `${fmt(r.ms, 0)} ms (CPU ${fmt(r.cpuMs, 0)} ms), +${fmt(r.rssMB, 0)} MB RSS (peak +${fmt(r.peakMB, 0)} MB)${watches}`;
}

function ratios(a: WatchChildResult, b: WatchChildResult): string {
  const rss = fmt(a.peakMB / Math.max(b.peakMB, 1), 2);
  return `time ${fmt(a.ms / b.ms, 2)}, CPU ${fmt(a.cpuMs / b.cpuMs, 2)}, peak RSS ${rss}`;
}

async function inChild(mode: WatchMode, tree: string): Promise<WatchChildResult> {
  const child = fileURLToPath(new URL('./watch-child.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [child, mode, tree], {
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout) as WatchChildResult;
}

/** `folders` folders of 1,000 small .jpg files under `tree`, created once. */
async function ensureWatchTree(tree: string, folders: number): Promise<string> {
  if (existsSync(join(tree, '.complete'))) return tree;
  process.stdout.write(`(creating ${folders * FILES_PER_FOLDER} files under ${tree}, once)\n`);
  await rm(tree, { recursive: true, force: true });
  for (let d = 0; d < folders; d++) {
    const dir = join(tree, `folder-${d}`);
    await mkdir(dir, { recursive: true });
    const names = Array.from({ length: FILES_PER_FOLDER }, (_, f) => `img-${f}.jpg`);
    await Promise.all(names.map((n, f) => writeFile(join(dir, n), 'x'.repeat(64 + (f % 200)))));
  }
  await writeFile(join(tree, '.complete'), '');
  return tree;
}

// `node build/bench/watch-bench.js` runs this section alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) await benchWatch();
