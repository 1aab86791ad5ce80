/**
 * Clips Chromium cannot play get a proxy made by real ffmpeg in the background (progress events,
 * frames kept one for one, cached by content hash); clips it can play are served as they are. The
 * export call refuses what the CLI refuses. The labelled export itself is driven end to end in
 * test/e2e/export-dialog.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application } from '../../../electron/application/application-types.js';
import { createApplication } from '../../../electron/application/create-application.js';
import { planPlayback } from '../../../electron/application/playback-plan.js';
import type { Playable } from '../../../electron/shared/contract/index.js';
import { clip } from '../../support/synth-media.js';
import { tempDir } from '../../support/temp-dir.js';

const run = promisify(execFile);
let app: Application;
let remove: () => Promise<void>;
let dir: string;
let home: string;
const progress: Playable[] = [];

async function frames(file: string): Promise<{ codec: string; frames: number }> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-count_frames'],
    ...['-show_entries', 'stream=codec_name,nb_read_frames', '-of', 'json', file],
  ]);
  const s = (JSON.parse(stdout) as { streams: { codec_name: string; nb_read_frames: string }[] })
    .streams[0]!;
  return { codec: s.codec_name, frames: Number(s.nb_read_frames) };
}

async function idOf(name: string): Promise<number> {
  for (;;) {
    const page = await app.handlers['library.page']({
      filter: { solution: 'objects', search: name },
      sort: 'path',
      descending: false,
      offset: 0,
      limit: 10,
    });
    const item = page.items.find((i) => i.name === name && i.durationMs !== null);
    if (item) return item.id;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const tmp = await tempDir();
  remove = tmp.remove;
  dir = join(tmp.dir, 'clips');
  home = join(tmp.dir, 'home');
  await mkdir(dir);
  await clip(dir, 'mpeg4.avi', 2); // ffmpeg's AVI default: MPEG-4 Part 2
  await clip(dir, 'plays.mp4', 1); // H.264 in MP4
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', join(dir, 'h264.avi')],
  ]);
  app = await createApplication({
    transport: 'in-process',
    mediaBase: 'test://',
    env: { ...process.env, LABELDESK_HOME: home },
  });
  app.onEvent((name, payload) => {
    if (name === 'media.proxyProgress') progress.push(payload as Playable);
  });
  await app.handlers['folders.add']({ path: dir });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await remove?.();
});

describe('playing clips', () => {
  it('plans: AVI and other codecs need a proxy, H.264 in AVI only a new container', () => {
    expect(planPlayback({ container: 'avi', videoCodec: 'mpeg4' }).kind).toBe('transcode');
    expect(planPlayback({ container: 'avi', videoCodec: 'h264' }).kind).toBe('remux');
    expect(planPlayback({ container: 'mov,mp4,m4a,3gp,3g2,mj2', videoCodec: 'hevc' }).kind).toBe(
      'transcode',
    );
    expect(planPlayback({ container: 'matroska,webm', videoCodec: 'vp9' }).kind).toBe('original');
    expect(planPlayback({ container: 'matroska,webm', videoCodec: 'vp9' }, true).kind).toBe(
      'transcode',
    );
  });

  it('serves a playable original as it is', async () => {
    const id = await idOf('plays.mp4');
    const p = await app.handlers['media.playable']({ id, force: false });
    expect(p).toMatchObject({ variant: 'file', state: 'ready', url: `test://file/${id}` });
    expect(await app.media.resolve('proxy', id)).toBeUndefined();
  });

  it('makes an H.264 proxy of an MPEG-4 AVI in the background, frame for frame', async () => {
    const id = await idOf('mpeg4.avi');
    const first = await app.handlers['media.playable']({ id, force: false });
    expect(first).toMatchObject({ variant: 'proxy', url: `test://proxy/${id}` });
    expect(first.reason).toMatch(/AVI|mpeg4/);
    await expect
      .poll(() => progress.find((p) => p.id === id && p.state !== 'making'), { timeout: 60_000 })
      .toMatchObject({ state: 'ready', progress: 1 });
    const file = await app.media.resolve('proxy', id);
    expect(file?.contentType).toBe('video/mp4');
    const [original, proxy] = await Promise.all([
      frames(join(dir, 'mpeg4.avi')),
      frames(file!.path),
    ]);
    expect(proxy.codec).toBe('h264');
    expect(proxy.frames).toBe(original.frames);
    const again = await app.handlers['media.playable']({ id, force: false });
    expect(again).toMatchObject({ state: 'ready', progress: 1 });
    // Cached under the home by content hash, with no partial file left beside it.
    expect((await readdir(join(home, 'proxies'))).filter((n) => n.includes('partial'))).toEqual([]);
  });

  it('only remuxes H.264 in AVI', async () => {
    const id = await idOf('h264.avi');
    const p = await app.handlers['media.playable']({ id, force: false });
    expect(p.reason).toBe('AVI container');
    await expect
      .poll(() => progress.find((e) => e.id === id && e.state !== 'making'), { timeout: 60_000 })
      .toMatchObject({ state: 'ready' });
    const file = await app.media.resolve('proxy', id);
    expect((await frames(file!.path)).frames).toBe((await frames(join(dir, 'h264.avi'))).frames);
  });
});

describe('export.start refusals', () => {
  const base = {
    format: 'coco' as const,
    solution: 'objects',
    scope: { kind: 'all' as const },
  };

  it('wants an absolute destination', async () => {
    await expect(
      Promise.resolve(app.handlers['export.start']({ ...base, destination: 'out.json' } as never)),
    ).rejects.toMatchObject({ code: 'bad_destination' });
  });

  it('refuses an existing file unless Replace is ticked', async () => {
    const target = join(dir, '..', 'existing.json');
    await writeFile(target, 'keep me');
    const args = {
      ...base,
      destination: target,
      onlyAccepted: false,
      minScore: 0,
      clipFrames: false,
    };
    await expect(
      Promise.resolve(app.handlers['export.start']({ ...args, replace: false })),
    ).rejects.toMatchObject({ code: 'target_exists' });
    const done = await app.handlers['export.start']({ ...args, replace: true });
    expect(done).toMatchObject({ destination: target, boxes: 0, written: [target] });
  });

  it('writes clip frames only for image formats', async () => {
    await expect(
      Promise.resolve(
        app.handlers['export.start']({
          ...base,
          format: 'mot',
          destination: join(dir, '..', 'mot'),
          onlyAccepted: false,
          minScore: 0,
          clipFrames: true,
          replace: false,
        }),
      ),
    ).rejects.toMatchObject({ code: 'bad_option' });
  });
});
