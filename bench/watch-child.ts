/**
 * One configuration of the `watch` bench in a fresh process, so its RSS is its own:
 * `node build/bench/watch-child.js <mode> <tree>` prints one JSON line (WatchChildResult).
 * RSS is measured from a baseline taken after the modules are loaded, before any work.
 */
import { readdir, readFile, lstat, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watch as chokidarWatch } from 'chokidar';
import { scanFolder } from '../electron/core/library/scan-folder.js';
import { type WatchEvent, watchFolders } from '../electron/core/library/watch-folders.js';

export const WATCH_MODES = ['walk', 'scan', 'watch', 'chokidar-root', 'chokidar-default'] as const;
export type WatchMode = (typeof WATCH_MODES)[number];

export interface WatchChildResult {
  /** Start to `ready` (watchers) or to the end of the walk (walk, scan). */
  ms: number;
  /** CPU time (user + system, all threads) to that point: steadier than `ms` on a shared machine. */
  cpuMs: number;
  /** RSS at ready minus the baseline, and the peak (maxRSS) minus the baseline, in MB. */
  rssMB: number;
  peakMB: number;
  /** inotify watches held at ready (Linux), -1 elsewhere. */
  watches: number;
  /** `watch` only: a file written after ready, reported after this many ms. */
  pickupMs?: number;
}

async function run(mode: WatchMode, tree: string): Promise<WatchChildResult> {
  const base = process.memoryUsage().rss;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let close = async (): Promise<unknown> => undefined;
  let onAdded: ((e: WatchEvent) => void) | undefined;
  if (mode === 'walk') await bareWalk(tree);
  else if (mode === 'scan') for await (const batch of scanFolder(tree)) void batch;
  else if (mode === 'watch') {
    const watcher = watchFolders([tree], (e) => e.type === 'added' && onAdded?.(e));
    await watcher.ready;
    close = () => watcher.close();
  } else {
    // The approach of the issue (one chokidar watcher per root, files ignored), and defaults.
    const ignored = (_p: string, st?: { isDirectory(): boolean }) => !!st && !st.isDirectory();
    const options = mode === 'chokidar-root' ? { ignoreInitial: true, ignored } : {};
    const watcher = chokidarWatch(tree, options);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    close = () => watcher.close();
  }
  const result: WatchChildResult = {
    ms: performance.now() - t0,
    cpuMs: cpuMs(process.cpuUsage(cpu0)),
    rssMB: (process.memoryUsage().rss - base) / 2 ** 20,
    peakMB: (process.resourceUsage().maxRSS * 1024 - base) / 2 ** 20,
    watches: await inotifyWatches(),
  };
  if (mode === 'watch') result.pickupMs = await pickup(tree, (fn) => (onAdded = fn));
  await close();
  return result;
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** The bare baseline: readdir, then lstat of each file, one call at a time. */
async function bareWalk(tree: string): Promise<void> {
  const stack = [tree];
  while (stack.length) {
    const dir = stack.pop() as string;
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) stack.push(p);
      else await lstat(p);
    }
  }
}

/** Writes one new image into the watched tree and times its `added` event (then removes it). */
async function pickup(
  tree: string,
  listen: (fn: (e: WatchEvent) => void) => void,
): Promise<number> {
  const file = path.join(tree, 'folder-0', `bench-new-${process.pid}.jpg`);
  const t0 = performance.now();
  // A missed event must not hang the bench: after 30 s the figure is NaN.
  const added = new Promise<number>((resolve) => {
    const timer = setTimeout(() => resolve(NaN), 30_000);
    listen((e) => {
      if (e.path !== file) return;
      clearTimeout(timer);
      resolve(performance.now() - t0);
    });
  });
  await writeFile(file, Buffer.alloc(4096));
  try {
    return await added;
  } finally {
    await rm(file, { force: true });
  }
}

async function inotifyWatches(): Promise<number> {
  if (process.platform !== 'linux') return -1;
  let count = 0;
  for (const fd of await readdir('/proc/self/fdinfo')) {
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    for (const line of info.split('\n')) if (line.startsWith('inotify wd:')) count++;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, tree] = process.argv.slice(2) as [WatchMode, string];
  process.stdout.write(JSON.stringify(await run(mode, path.resolve(tree))) + '\n');
}
