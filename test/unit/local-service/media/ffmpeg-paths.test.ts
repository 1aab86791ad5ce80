import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearToolPathCache,
  resolveFfmpeg,
  resolveFfprobe,
} from '../../../../electron/local-service/media/ffmpeg-paths.js';

const require = createRequire(import.meta.url);
const bundledFfmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
const bundledFfprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
const savedPath = process.env.PATH;

afterEach(() => {
  process.env.PATH = savedPath;
  clearToolPathCache();
});

describe('resolveFfmpeg / resolveFfprobe', () => {
  it('prefers the configured path', async () => {
    expect(await resolveFfmpeg(bundledFfmpeg)).toBe(bundledFfmpeg);
  });

  it('falls back to PATH when the configured path does not run', async () => {
    expect(await resolveFfmpeg('/nonexistent/ffmpeg')).toBe('/usr/bin/ffmpeg');
    expect(await resolveFfprobe()).toBe('/usr/bin/ffprobe');
  });

  it('falls back to the bundled binary when PATH has none', async () => {
    process.env.PATH = '/nonexistent';
    expect(await resolveFfmpeg()).toBe(bundledFfmpeg);
    expect(await resolveFfprobe()).toBe(bundledFfprobe);
  });

  it('rejects a file that runs but is not ffmpeg, and caches the answer', async () => {
    expect(await resolveFfprobe('/bin/true')).toBe('/usr/bin/ffprobe');
    process.env.PATH = '/nonexistent';
    expect(await resolveFfprobe('/bin/true')).toBe('/usr/bin/ffprobe'); // cached
  });
});
