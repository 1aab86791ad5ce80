/**
 * A copy of the project for electron-builder to pack, so that a packaging run cannot write into the
 * worktree: the project's own files are copied, node_modules is linked (electron-builder only reads
 * it while `npmRebuild` is false, which the packaging test checks before it runs anything).
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** The fuse wire @electron/fuses looks for in an Electron binary: sentinel, version 1, length. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
export const FUSE_COUNT = 9;

export async function stageProject(root: string, stage: string): Promise<void> {
  for (const entry of [
    'package.json',
    'electron-builder.yml',
    'resources',
    'bin',
    'build',
    'out',
  ]) {
    await cp(join(root, entry), join(stage, entry), {
      recursive: true,
      dereference: true,
      // Media the tests and bench extract there (and may be extracting now): no part of the app.
      filter: (source) => !source.includes(`${sep}.cache`),
    });
  }
  await symlink(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
}

/**
 * Stands in for the Electron download this machine cannot make: electron-builder copies an
 * `electronDist` folder as Electron, then flips the fuses in its `electron` file, every fuse
 * enabled here as in a fresh Electron.
 */
export async function fakeElectronDist(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\n# ${FUSE_SENTINEL}`),
    Buffer.from([1, FUSE_COUNT]),
    Buffer.alloc(FUSE_COUNT, '1'),
    Buffer.from('\n'),
  ]);
  await writeFile(join(dir, 'electron'), wire, { mode: 0o755 });
  return dir;
}

export interface PackResult {
  code: number | null;
  output: string;
}

/** Runs electron-builder's `dir` target in `stage`; never reaches the network (dead mirror). */
export function packDir(stage: string, electronDist: string): Promise<PackResult> {
  const cli = join(stage, 'node_modules', 'electron-builder', 'cli.js');
  const args = [cli, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${electronDist}`];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: stage,
      env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
