/**
 * Creating a library is safe when processes start at once: several real processes open the same
 * fresh LABELDESK_HOME at the same instant (the library database and the embedded service's), many
 * times over. Before migrations ran under BEGIN IMMEDIATE, one of two died with "table settings
 * already exists".
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_MIGRATIONS } from '../../../electron/core/store/migrations.js';
import { SERVICE_MIGRATIONS } from '../../../electron/local-service/store/migrations.js';
import { packageRoot } from '../../../electron/node-lib/app-paths.js';
import { assertFreshBuild } from '../../support/crash-cli.js';
import { tempDir } from '../../support/temp-dir.js';

const ROUNDS = 12;
const PROCESSES = 4;

const built = (path: string) => pathToFileURL(join(packageRoot(), 'build', path)).href;

/** Loads, says so, and on "go" opens (creating) both databases, as `label` and `plan` do. */
const CHILD = `
const [home] = process.argv.slice(1);
const { openLibraryStore } = await import(${JSON.stringify(built('electron/core/review/open-library-store.js'))});
const { migrate, openDatabase } = await import(${JSON.stringify(built('electron/node-lib/sqlite.js'))});
const { SERVICE_MIGRATIONS } = await import(${JSON.stringify(built('electron/local-service/store/migrations.js'))});
process.stdout.write('ready;');
await new Promise((resolve) => process.stdin.once('data', resolve));
openLibraryStore(home + '/library.sqlite').close();
const db = openDatabase(home + '/service.sqlite');
migrate(db, SERVICE_MIGRATIONS);
db.close();
process.stdout.write('ok');
`;

/** Starts the processes, and once all have loaded, lets them go in the same instant. */
async function openAtOnce(home: string): Promise<{ code: number | null; out: string }[]> {
  const children = Array.from({ length: PROCESSES }, () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, home], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.startsWith('ready;')) resolve();
      }),
    );
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, ready: Promise.race([ready, exited]), exited, out: () => out };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.end('go');
  return Promise.all(children.map(async (c) => ({ code: await c.exited, out: c.out() })));
}

const versions = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    );
  } finally {
    db.close();
  }
};

let tmp: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  assertFreshBuild(['electron/core/store', 'electron/node-lib', 'electron/local-service/store']);
  tmp = await tempDir('labeldesk-create-race-');
});
afterAll(() => tmp?.remove());

describe('a fresh library opened by several processes at once', () => {
  it(`is created once, whole, ${ROUNDS} times out of ${ROUNDS}`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const home = join(tmp.dir, `home-${round}`);
      await mkdir(home);
      for (const r of await openAtOnce(home))
        expect(r, r.out).toEqual({ code: 0, out: 'ready;ok' });
      expect(versions(join(home, 'library.sqlite'))).toEqual(
        LIBRARY_MIGRATIONS.map((m) => m.version),
      );
      expect(versions(join(home, 'service.sqlite'))).toEqual(
        SERVICE_MIGRATIONS.map((m) => m.version),
      );
    }
  }, 120_000);
});
