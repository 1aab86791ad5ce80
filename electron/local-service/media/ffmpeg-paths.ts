/**
 * Finds working ffmpeg/ffprobe binaries: the configured path, then PATH, then the static binary
 * bundled in @ffmpeg-installer / @ffprobe-installer. Each candidate is run with `-version` so a
 * broken or foreign file is skipped, and the first that works is cached for the process.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { messageOf } from '../../shared/error-message.js';

type Tool = 'ffmpeg' | 'ffprobe';

const BUNDLED_PACKAGE: Record<Tool, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};
const VERSION_TIMEOUT_MS = 10_000;

const cache = new Map<string, Promise<string>>();

export function resolveFfmpeg(configured?: string): Promise<string> {
  return resolveTool('ffmpeg', configured);
}

export function resolveFfprobe(configured?: string): Promise<string> {
  return resolveTool('ffprobe', configured);
}

/** Forgets resolved paths (tests, or after the user changes the configured path). */
export function clearToolPathCache(): void {
  cache.clear();
}

function resolveTool(tool: Tool, configured?: string): Promise<string> {
  const key = `${tool}\0${configured ?? ''}`;
  let found = cache.get(key);
  if (!found) {
    found = findTool(tool, configured);
    // Failures are not cached: installing ffmpeg must not need a restart.
    found.catch(() => cache.delete(key));
    cache.set(key, found);
  }
  return found;
}

async function findTool(tool: Tool, configured?: string): Promise<string> {
  const tried: string[] = [];
  const candidates = async function* () {
    if (configured) yield { from: 'configured', file: configured };
    const onPath = await findOnPath(tool);
    if (onPath) yield { from: 'PATH', file: onPath };
    else tried.push(`PATH: no ${tool}`);
    const bundled = bundledPath(tool);
    if (typeof bundled === 'string') yield { from: 'bundled', file: bundled };
    else tried.push(`bundled: ${bundled.error}`);
  };
  for await (const { from, file } of candidates()) {
    const problem = await checkRuns(file);
    if (!problem) return file;
    tried.push(`${from} ${file}: ${problem}`);
  }
  throw new Error(`No working ${tool} found (${tried.join('; ')})`);
}

async function findOnPath(tool: Tool): Promise<string | undefined> {
  const exe = process.platform === 'win32' ? `${tool}.exe` : tool;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, exe);
    try {
      await access(file, constants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

function bundledPath(tool: Tool): string | { error: string } {
  try {
    const require = createRequire(import.meta.url);
    const mod = require(BUNDLED_PACKAGE[tool]) as { path: string };
    // Inside a packaged app the binary is unpacked next to the asar archive, not in it.
    return mod.path.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  } catch (err) {
    // These packages throw plain strings on unsupported platforms.
    return { error: messageOf(err) };
  }
}

function checkRuns(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, ['-version'], { timeout: VERSION_TIMEOUT_MS }, (err, stdout) => {
      if (err) resolve(err.message.split('\n')[0]);
      else if (!/version/i.test(stdout)) resolve('not an ffmpeg binary');
      else resolve(undefined);
    });
  });
}
