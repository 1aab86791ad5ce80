/**
 * For tests of the runner rig (crash-runner.ts): folders of new, distinct synthetic images and
 * copies of one real clip, made in a temp folder kept for the file's tests, and rigs that are
 * closed after each test. Registers its own Vitest hooks: call it once at the top of a file.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRunnerRig, type RunnerRig } from './crash-runner.js';
import { clip, jpeg } from './synth-media.js';
import { tempDir } from './temp-dir.js';

export interface RunnerTestMedia {
  /** A new folder of `count` images no earlier call made (so none is reused). */
  images(count: number): Promise<string>;
  /** A new folder holding copies of the one clip under each name (one content). */
  clips(names?: readonly string[]): Promise<string>;
  /** A new empty folder, named after `name`. */
  folder(name: string): Promise<string>;
  /** The clip the copies are made from. */
  clipFile(): string;
  /** A rig for this test, closed after it. */
  startRig(options?: Parameters<typeof startRunnerRig>[0]): Promise<RunnerRig>;
}

export function runnerTestMedia(prefix: string): RunnerTestMedia {
  let media: { dir: string; remove: () => Promise<void> } | undefined;
  let source = '';
  let seed = 0;
  const rigs: RunnerRig[] = [];
  const dir = () => {
    if (!media) throw new Error('runnerTestMedia: used outside a test');
    return media.dir;
  };
  // Callers destructure the methods, so none of them may rely on `this`.
  const folder = async (name: string) => {
    const made = join(dir(), `${name}-${seed++}`);
    await mkdir(made);
    return made;
  };

  beforeAll(async () => {
    media = await tempDir(prefix);
    source = await clip(media.dir, 'source.mp4', 4);
  });
  afterAll(() => media?.remove());
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.close()));
  });

  return {
    async images(count) {
      const folder = join(dir(), `images-${seed}`);
      await mkdir(folder);
      for (let i = 0; i < count; i++)
        await writeFile(join(folder, `p${i}.jpg`), await jpeg(64 + seed, 48 + i, seed + i));
      seed += count;
      return folder;
    },
    async clips(names = ['c.mp4']) {
      const made = await folder('clip');
      for (const name of names) await copyFile(source, join(made, name));
      return made;
    },
    folder,
    clipFile: () => source,
    async startRig(options) {
      const rig = await startRunnerRig(options);
      rigs.push(rig);
      return rig;
    },
  };
}
