import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** Every `…workerScript(` or `…WorkerScript(import.meta.url, 'name.js')` under electron/: the threads the code starts. */
async function workerNames(): Promise<string[]> {
  const names = new Set<string>();
  for (const entry of await readdir(path.join(root, 'electron'), { recursive: true })) {
    if (!entry.endsWith('.ts')) continue;
    const text = await readFile(path.join(root, 'electron', entry), 'utf8');
    for (const m of text.matchAll(/[wW]orkerScript\(import\.meta\.url, '([\w-]+)\.js'\)/g))
      names.add(m[1] as string);
  }
  return [...names].sort();
}

describe('the desktop build', () => {
  it('emits every worker thread the code starts beside its main bundle', async () => {
    const names = await workerNames();
    expect(names).toContain('read-worker');
    const config = await readFile(path.join(root, 'electron.vite.config.ts'), 'utf8');
    // Without its entry a worker script is missing from out/main: the read pool and the scan's
    // writer then quietly run on the main thread, and the other workers fail to start.
    const missing = names.filter((n) => !config.includes(`'${n}': resolve('electron/`));
    expect(missing).toEqual([]);
  });
});
