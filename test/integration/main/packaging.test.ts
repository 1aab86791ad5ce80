/**
 * Issue 27 §3: what electron-builder packs, and that packaging, finished or failed, leaves the
 * Node builds of the native modules (and so the CLI) as they were. This machine cannot download
 * Electron: electron-builder packs the `dir` target around a stand-in Electron folder (its fuse
 * wire included), which exercises everything but the Electron binary itself and the AppImage and
 * deb tools (also downloads).
 */
import { listPackage } from '@electron/asar';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import {
  fakeElectronDist,
  FUSE_COUNT,
  packDir,
  stageProject,
} from '../../support/packaging-stage.js';
import { tempDir } from '../../support/temp-dir.js';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NODE_BUILD = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);
const { getConfig } = require('app-builder-lib/out/util/config/config') as {
  getConfig(dir: string, path: string | null, options: null): Promise<{ npmRebuild?: boolean }>;
};

const sha = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

/** The CLI opens its library (SQLite through better-sqlite3's Node build) and answers. */
async function cliWorks(): Promise<void> {
  const home = await cliHome();
  try {
    const result = await runCli(['status', '--json'], cliEnv(home.home));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  } finally {
    await home.remove();
  }
}

let work: Awaited<ReturnType<typeof tempDir>>;
let stage: string;
let nodeBuildBefore: string;

beforeAll(async () => {
  // Checked before anything runs the packager next to the shared node_modules: with npmRebuild on,
  // electron-builder rebuilds node_modules in place and, offline, deletes better-sqlite3's build.
  expect((await getConfig(ROOT, null, null)).npmRebuild).toBe(false);
  expect(existsSync(join(ROOT, 'out', 'main', 'index.js')), 'run `npm run build` first').toBe(true);
  nodeBuildBefore = await sha(NODE_BUILD);
  work = await tempDir('labeldesk-pack-');
  stage = join(work.dir, 'project');
  await stageProject(ROOT, stage);
  // Stands for scripts/electron-sqlite.js's Electron build (it needs the network to be made).
  const native = join(stage, 'build', 'electron-native');
  await mkdir(native, { recursive: true });
  await copyFile(NODE_BUILD, join(native, 'better_sqlite3.node'));
  await writeFile(join(native, 'better_sqlite3.json'), '{}');
  // What the tests and bench extract under build/.cache (real media): must stay out of a package.
  await mkdir(join(stage, 'build', '.cache', 'media'), { recursive: true });
  await writeFile(join(stage, 'build', '.cache', 'media', 'vtest.avi'), 'media');
});
afterAll(async () => {
  await work?.remove();
});

describe('electron-builder packaging', () => {
  it('packs the app, the Electron build of better-sqlite3 and only Linux onnxruntime binaries', async () => {
    const electronDist = await fakeElectronDist(join(work.dir, 'electron-dist'));
    const packed = await packDir(stage, electronDist);
    expect(packed.code, packed.output).toBe(0);

    const resources = join(stage, 'dist', 'linux-unpacked', 'resources');
    const files = listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) =>
      f.replace(/\\/g, '/'),
    );
    // Only what `files` names: not the project folder (a platform's `files` made of exclusions
    // alone once made electron-builder add `**/*`).
    expect(files.filter((f) => f.split('/').length === 2).sort()).toEqual([
      '/bin',
      '/build',
      '/node_modules',
      '/out',
      '/package.json',
    ]);
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/bin/labeldesk.js',
      '/build/electron/cli/main.js',
      '/node_modules/better-sqlite3/lib/index.js',
      '/node_modules/onnxruntime-node/dist/index.js',
    ]) {
      expect(files).toContain(file);
    }
    const unwanted = files.filter((f) =>
      /\.map$|^\/build\/(test|bench|\.cache)\/|^\/node_modules\/(vitest|electron-builder|typescript|electron|eslint)\/|^\/node_modules\/better-sqlite3\/(build|deps|src)\/|\/napi-v\d+\/(darwin|win32)\//.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);

    const unpacked = join(resources, 'app.asar.unpacked');
    expect(existsSync(join(unpacked, 'build', 'electron-native', 'better_sqlite3.node'))).toBe(
      true,
    );
    expect(existsSync(join(unpacked, 'build', 'electron-native', 'better_sqlite3.json'))).toBe(
      false,
    );
    const ort = join(unpacked, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6');
    expect(existsSync(join(ort, 'linux', 'x64', 'libonnxruntime.so.1'))).toBe(true);
    expect(existsSync(join(ort, 'linux', 'arm64'))).toBe(false);
    expect(existsSync(join(ort, 'darwin'))).toBe(false);
    expect(existsSync(join(ort, 'win32'))).toBe(false);

    // The fuses were flipped in the packed binary: RunAsNode (the first fuse) is off.
    const binary = await readFile(join(stage, 'dist', 'linux-unpacked', 'labeldesk'));
    const wire = binary.subarray(binary.indexOf('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX') + 32 + 2);
    expect(wire.subarray(0, FUSE_COUNT).toString()[0]).toBe('0');

    expect(await sha(NODE_BUILD)).toBe(nodeBuildBefore);
    await cliWorks();
  }, 240_000);

  it('a failed packaging leaves the Node build and the CLI working', async () => {
    const failed = await packDir(stage, join(work.dir, 'no-such-electron'));
    expect(failed.code).not.toBe(0);
    expect(await sha(NODE_BUILD)).toBe(nodeBuildBefore);
    await cliWorks();
  }, 120_000);
});
