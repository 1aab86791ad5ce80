/**
 * Which better-sqlite3 binary the app loads. better-sqlite3 is not Node-API, so under Electron it
 * needs a build for Electron's ABI: `scripts/electron-sqlite.js` keeps one in build/electron-native
 * (and `npm start` names it in LABELDESK_SQLITE_BINDING), while the CLI and tests keep Node's build.
 * A packaged app has none: electron-builder rebuilds node_modules for Electron when packing.
 */
import { join } from 'node:path';

export const ELECTRON_SQLITE_BINDING = join('build', 'electron-native', 'better_sqlite3.node');

export interface BindingProbe {
  isPackaged: boolean;
  appPath: string;
  env: Record<string, string | undefined>;
  exists(path: string): boolean;
}

export function electronSqliteBinding(probe: BindingProbe): string | undefined {
  const named = probe.env['LABELDESK_SQLITE_BINDING'];
  if (named) return named;
  if (probe.isPackaged) return undefined;
  const built = join(probe.appPath, ELECTRON_SQLITE_BINDING);
  return probe.exists(built) ? built : undefined;
}
