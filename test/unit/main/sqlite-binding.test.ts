import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { electronSqliteBinding } from '../../../electron/main/sqlite-binding.js';
import { openDatabase, setSqliteNativeBinding } from '../../../electron/node-lib/sqlite.js';
import { builtForAbi, isUpToDate, wantedBuild } from '../../../scripts/electron-sqlite.js';

const require = createRequire(import.meta.url);
const NODE_BUILD = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'labeldesk-sqlite-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  setSqliteNativeBinding(undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('better-sqlite3 native binding', () => {
  it('is loaded from the path given to openDatabase and openLibraryStore', () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'a.sqlite'), { nativeBinding: NODE_BUILD });
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
    const missing = join(dir, 'electron-native', 'better_sqlite3.node');
    expect(() => openDatabase(join(dir, 'b.sqlite'), { nativeBinding: missing })).toThrow();
    expect(() => openLibraryStore(join(dir, 'c.sqlite'), { nativeBinding: missing })).toThrow();
    openLibraryStore(join(dir, 'd.sqlite'), { nativeBinding: NODE_BUILD }).close();
  });

  it('is loaded for every database once a host sets it for the process', () => {
    const dir = tempDir();
    setSqliteNativeBinding(join(dir, 'nowhere', 'better_sqlite3.node'));
    expect(() => openDatabase(join(dir, 'a.sqlite'))).toThrow();
    setSqliteNativeBinding(undefined);
    openDatabase(join(dir, 'a.sqlite')).close();
  });

  it('is the Electron build in development, the named one when npm start names it, none when packaged', () => {
    const exists = (path: string) =>
      path === join('/app', 'build', 'electron-native', 'better_sqlite3.node');
    const probe = { isPackaged: false, appPath: '/app', env: {}, exists };
    expect(electronSqliteBinding(probe)).toBe(
      join('/app', 'build', 'electron-native', 'better_sqlite3.node'),
    );
    expect(electronSqliteBinding({ ...probe, appPath: '/elsewhere' })).toBeUndefined();
    expect(electronSqliteBinding({ ...probe, isPackaged: true })).toBeUndefined();
    expect(
      electronSqliteBinding({
        ...probe,
        env: { LABELDESK_SQLITE_BINDING: '/x/better_sqlite3.node' },
      }),
    ).toBe('/x/better_sqlite3.node');
  });

  it('is the Electron build unpacked beside app.asar in a package', () => {
    const appPath = join('/opt', 'LabelDesk', 'resources', 'app.asar');
    const unpacked = join(`${appPath}.unpacked`, 'build', 'electron-native', 'better_sqlite3.node');
    const probe = { isPackaged: true, appPath, env: {}, exists: (p: string) => p === unpacked };
    expect(electronSqliteBinding(probe)).toBe(unpacked);
  });
});

describe('scripts/electron-sqlite.js', () => {
  it('targets the installed Electron and better-sqlite3', () => {
    const wanted = wantedBuild();
    expect(wanted.electron).toBe(require('electron/package.json').version);
    expect(wanted.abi).toMatch(/^\d+$/);
    expect(wanted.betterSqlite3).toBe(require('better-sqlite3/package.json').version);
  });

  it('knows a build is stale when the stamp or the binary does not match', () => {
    const dir = tempDir();
    const wanted = wantedBuild();
    const stamp = join(dir, 'better_sqlite3.json');
    const binary = join(dir, 'better_sqlite3.node');
    expect(isUpToDate(wanted, stamp, binary)).toBe(false);
    writeFileSync(binary, '');
    writeFileSync(stamp, JSON.stringify(wanted));
    expect(isUpToDate(wanted, stamp, binary)).toBe(true);
    writeFileSync(stamp, JSON.stringify({ ...wanted, electron: '1.0.0' }));
    expect(isUpToDate(wanted, stamp, binary)).toBe(false);
  });

  it("refuses Node's own build as an Electron build", () => {
    expect(builtForAbi(NODE_BUILD, wantedBuild().abi)).toBe(false);
    expect(builtForAbi(NODE_BUILD, process.versions.modules)).toBe(false);
  });
});
