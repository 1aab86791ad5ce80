import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../../electron/core/review/open-library-store.js';
import { packageRoot } from '../../../../electron/node-lib/app-paths.js';
import { tempDir } from '../../../support/temp-dir.js';

const root = packageRoot();
const writer = join(root, 'test/integration/core/store/crash-writer.mjs');

/** The child runs compiled JS: refuse to test a build older than the sources. */
function assertFreshBuild(): void {
  const src = join(root, 'electron/core/store');
  const out = join(root, 'build/electron/core/store');
  for (const f of readdirSync(src).filter((n) => n.endsWith('.ts'))) {
    const built = join(out, f.replace(/\.ts$/, '.js'));
    let builtAt = 0;
    try {
      builtAt = statSync(built).mtimeMs;
    } catch {
      // Missing: reported below.
    }
    if (builtAt < statSync(join(src, f)).mtimeMs) {
      throw new Error(`${built} is missing or older than its source: run npm run build:node`);
    }
  }
}

/** Runs the writer, SIGKILLs it at a random moment, and returns the batches it reported. */
function writeUntilKilled(file: string, first: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, file, String(first)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // Let it get going (at least a few batches), then kill it somewhere in its loop.
      if (!armed && out.split('\n').length > 5) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), Math.random() * 300);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer exited on its own: ${err}`));
      // Only complete lines count: a half-written number was never fully reported.
      const lines = out.split('\n').slice(0, -1);
      resolve(lines.map(Number));
    });
  });
}

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  assertFreshBuild();
  tmp = await tempDir('labeldesk-kill-');
});
afterAll(() => tmp?.remove());

describe('library store under kill -9', () => {
  it('reopens sound after repeated SIGKILLs, with every batch reported as committed', async () => {
    const file = join(tmp.dir, 'library.sqlite');
    const committed: number[] = [];
    for (let round = 0; round < 6; round++) {
      committed.push(...(await writeUntilKilled(file, round * 1_000_000)));
    }
    expect(committed.length).toBeGreaterThan(30);

    const store = openLibraryStore(file);
    try {
      expect(store.integrityCheck()).toBe('ok');
      for (const n of committed) {
        expect(store.media.byPath(`/crash/${n}/0.jpg`)?.contentHash).toBe(`batch-${n}`);
        expect(store.media.byPath(`/crash/${n}/19.jpg`)).toBeDefined();
        expect(store.results.find(`batch-${n}`, 'objects')?.boxCount).toBe(50);
      }
    } finally {
      store.close();
    }

    // Nothing torn either: every batch is all its files or none, every result all its boxes.
    const db = new Database(file, { readonly: true });
    const torn = db
      .prepare(`SELECT content_hash, count(*) AS n FROM media GROUP BY content_hash HAVING n != 20`)
      .all();
    const short = db
      .prepare(
        `SELECT r.id FROM results r
         WHERE r.box_count != (SELECT count(*) FROM detections d WHERE d.result_id = r.id)`,
      )
      .all();
    db.close();
    expect(torn).toEqual([]);
    expect(short).toEqual([]);
  });
});
