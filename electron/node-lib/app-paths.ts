/** Where LabelDesk's files are: the package root (resources, build info) and the per-user data folder. */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder holding LabelDesk's package.json, found by walking up from this module (source or build). */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'labeldesk'
    ) {
      root = dir;
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('LabelDesk package root not found');
    dir = up;
  }
}

export function resourcesDir(): string {
  return process.env['LABELDESK_RESOURCES'] ?? join(packageRoot(), 'resources');
}

/** `version` of package.json plus the build id written by the build, e.g. "0.1.0+3fa2c1d". */
export function buildVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
    version: string;
  };
  const infoFile = join(packageRoot(), 'build', 'build-info.json');
  const buildId = existsSync(infoFile)
    ? (JSON.parse(readFileSync(infoFile, 'utf8')) as { buildId: string }).buildId
    : 'dev';
  return `${pkg.version}+${buildId}`;
}

/** The data folder the desktop app uses (Electron's userData for "LabelDesk"), unless LABELDESK_HOME says otherwise. */
export function labeldeskHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env['LABELDESK_HOME']) return env['LABELDESK_HOME'];
  const home = homedir();
  if (process.platform === 'win32')
    return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'LabelDesk');
  if (process.platform === 'darwin')
    return join(home, 'Library', 'Application Support', 'LabelDesk');
  return join(env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'LabelDesk');
}
