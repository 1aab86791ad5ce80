/**
 * Finds ffprobe/ffmpeg for the library: the configured path, then PATH, then the static binary of
 * @ffprobe-installer / @ffmpeg-installer. Same order as the embedded service, written again here
 * because core may not import electron/local-service. The first that runs `-version` is cached.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { messageOf } from '../../shared/error-message.js';

export type MediaTool = 'ffprobe' | 'ffmpeg';

const BUNDLED: Record<MediaTool, string> = {
  ffprobe: '@ffprobe-installer/ffprobe',
  ffmpeg: '@ffmpeg-installer/ffmpeg',
};
const cache = new Map<string, Promise<string>>();

/** Resolves a working binary or rejects with every place tried. */
export function resolveTool(tool: MediaTool, configured?: string): Promise<string> {
  const cacheKey = `${tool}\0${configured ?? ''}`;
  let found = cache.get(cacheKey);
  if (!found) {
    found = find(tool, configured);
    // Not cached on failure: installing ffmpeg must not need a restart.
    found.catch(() => cache.delete(cacheKey));
    cache.set(cacheKey, found);
  }
  return found;
}

async function find(tool: MediaTool, configured?: string): Promise<string> {
  const candidates: { from: string; file: string | undefined; why?: string }[] = [];
  if (configured) candidates.push({ from: 'configured', file: configured });
  candidates.push({ from: 'PATH', file: await onPath(tool) });
  candidates.push(bundled(tool));
  const tried: string[] = [];
  for (const c of candidates) {
    if (!c.file) {
      tried.push(`${c.from}: ${c.why ?? 'not found'}`);
      continue;
    }
    const problem = await runsVersion(c.file);
    if (!problem) return c.file;
    tried.push(`${c.from} ${c.file}: ${problem}`);
  }
  throw new Error(`No working ${tool} found (${tried.join('; ')})`);
}

async function onPath(tool: MediaTool): Promise<string | undefined> {
  const exe = process.platform === 'win32' ? `${tool}.exe` : tool;
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, exe);
    if (
      await access(file, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return file;
  }
  return undefined;
}

function bundled(tool: MediaTool): { from: string; file: string | undefined; why?: string } {
  try {
    const mod = createRequire(import.meta.url)(BUNDLED[tool]) as { path: string };
    // In a packaged app the binary is unpacked next to the asar archive.
    const file = mod.path.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    return { from: 'bundled', file };
  } catch (err) {
    // These packages throw plain strings on unsupported platforms.
    return {
      from: 'bundled',
      file: undefined,
      why: messageOf(err),
    };
  }
}

function runsVersion(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, ['-version'], { timeout: 10_000 }, (err, stdout) => {
      if (err) resolve(err.message.split('\n')[0]);
      else resolve(/version/i.test(stdout) ? undefined : 'not an ffmpeg binary');
    });
  });
}
