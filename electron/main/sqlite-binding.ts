/**
 * Which better-sqlite3 binary the app loads. better-sqlite3 is not Node-API, so under Electron it
 * needs a build for Electron's ABI: `scripts/electron-sqlite.js` keeps one in build/electron-native
 * (and `npm start` names it in LABELDESK_SQLITE_BINDING), while the CLI and tests keep Node's build.
 * A package carries that same file outside its asar archive (electron-builder.yml's asarUnpack),
 * since electron-builder no longer rebuilds node_modules (that rebuild clobbered Node's build).
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
  // A native module cannot be loaded from inside app.asar: the package unpacks it beside it.
  const root = probe.isPackaged ? `${probe.appPath}.unpacked` : probe.appPath;
  const built = join(root, ELECTRON_SQLITE_BINDING);
  return probe.exists(built) ? built : undefined;
}
