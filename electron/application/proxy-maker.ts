/**
 * Playable proxies of clips Chromium cannot play, made by ffmpeg in the background: one at a time,
 * on one thread and at low priority (the UI's calls and a run keep their cores), cached under
 * LABELDESK_HOME/proxies by content hash so a copy of a clip shares its proxy and a restart reuses it.
 * A proxy appears under its final name only when complete; quitting kills the ffmpeg making one
 * and removes its partial file, and the proxy is made again when next asked for.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveTool } from '../core/library/tool-paths.js';
import type { MediaRecord } from '../core/store/store-types.js';
import type { Playable } from '../shared/contract/index.js';
import {
  planPlayback,
  probeStreams,
  proxyArgs,
  proxyEncoding,
  proxyExtension,
  type PlaybackPlan,
} from './playback-plan.js';

type State = Omit<Playable, 'id' | 'url' | 'fps' | 'durationMs'>;

interface Entry {
  state: State;
  file: string | null;
}

export class ProxyMaker {
  private readonly dir: string;
  private readonly entries = new Map<string, Entry>();
  private readonly planning = new Map<string, Promise<State>>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** Aborted on close: kills the ffmpeg at work. */
  private readonly quitting = new AbortController();

  constructor(
    home: string,
    private readonly onChange: (media: MediaRecord, state: State) => void,
  ) {
    this.dir = join(home, 'proxies');
  }

  /** What to play for a clip now; starts making its proxy when one is needed and missing. */
  async playable(media: MediaRecord, force: boolean): Promise<State> {
    const key = cacheKey(media);
    const known = this.entries.get(key);
    // `force` (the original showed no picture) or a failed proxy asked again: decide afresh.
    if (known && (!force || (known.state.variant === 'proxy' && known.state.state !== 'failed'))) {
      return known.state;
    }
    let planning = this.planning.get(key);
    if (!planning) {
      planning = this.plan(media, key, force).finally(() => this.planning.delete(key));
      this.planning.set(key, planning);
    }
    return planning;
  }

  private async plan(media: MediaRecord, key: string, force: boolean): Promise<State> {
    const plan = planPlayback(await probeStreams(media.path), force);
    if (plan.kind === 'original') {
      const state: State = {
        variant: 'file',
        state: 'ready',
        progress: 1,
        reason: null,
        error: null,
      };
      this.entries.set(key, { state, file: null });
      return state;
    }
    const encoding = await proxyEncoding();
    const file = join(this.dir, `${key}.${proxyExtension(plan, encoding)}`);
    const ready = existsSync(file);
    const entry: Entry = {
      state: {
        variant: 'proxy',
        state: ready ? 'ready' : 'making',
        progress: ready ? 1 : 0,
        reason: plan.reason,
        error: null,
      },
      file,
    };
    this.entries.set(key, entry);
    if (!ready) this.queue = this.queue.then(() => this.make(media, plan, encoding, entry));
    return entry.state;
  }

  /** The finished proxy of a clip, if there is one (the media route serves it). */
  proxyFile(media: MediaRecord): string | undefined {
    const entry = this.entries.get(cacheKey(media));
    return entry?.state.state === 'ready' && entry.file ? entry.file : undefined;
  }

  /** Kills the proxy being made and waits until its partial file is gone. */
  async close(): Promise<void> {
    this.closed = true;
    this.quitting.abort();
    await this.queue;
  }

  private async make(
    media: MediaRecord,
    plan: PlaybackPlan,
    encoding: 'h264' | 'vp9',
    entry: Entry,
  ): Promise<void> {
    const file = entry.file as string;
    const update = (next: Partial<State>) => {
      entry.state = { ...entry.state, ...next };
      this.onChange(media, entry.state);
    };
    if (this.closed) return;
    const partial = `${file}.partial.${process.pid}`;
    try {
      await mkdir(this.dir, { recursive: true });
      const ffmpeg = await resolveTool('ffmpeg');
      const args = ['-v', 'error', '-nostdin', '-threads', '1', '-progress', 'pipe:1', '-nostats'];
      args.push('-i', `file:${resolve(media.path)}`, ...proxyArgs(plan, encoding));
      args.push('-f', file.endsWith('.webm') ? 'webm' : 'mp4', '-y', partial);
      await run(ffmpeg, args, this.quitting.signal, (us) => {
        if (media.durationMs) update({ progress: Math.min(0.99, us / 1000 / media.durationMs) });
      });
      await rename(partial, file);
      update({ state: 'ready', progress: 1 });
    } catch (err) {
      await rm(partial, { force: true });
      update({
        state: 'failed',
        error: { code: 'proxy_failed', message: (err as Error).message.slice(0, 500) },
      });
    }
  }
}

/** The content hash when known (copies share one proxy), else the path, size and time. */
function cacheKey(media: MediaRecord): string {
  if (media.contentHash) return media.contentHash;
  return createHash('sha256')
    .update(`${media.path}\0${media.size}\0${media.mtimeMs}`)
    .digest('hex');
}

/** Runs ffmpeg at low priority; `onTime` gets `out_time_us` from its progress lines. */
function run(
  ffmpeg: string,
  args: string[],
  signal: AbortSignal,
  onTime: (us: number) => void,
): Promise<void> {
  return new Promise((done, fail) => {
    // SIGKILL on abort: ffmpeg finishing its container on SIGTERM can take seconds.
    const child = spawn(ffmpeg, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
      killSignal: 'SIGKILL',
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, 15);
      } catch {
        // Not allowed on some systems: it then runs at normal priority, on one thread still.
      }
    }
    let err = '';
    let pending = '';
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m) onTime(Number(m[1]));
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`ffmpeg could not make a proxy: ${err.trim()}`)),
    );
  });
}
