// `npm start`: builds what is stale, then opens the desktop app where Electron can run, or else
// says why in one line and starts browser mode (`labeldesk app`) with the same UI.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BINDING, buildElectronSqlite } from './electron-sqlite.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron executable if its binary was downloaded (never triggers the download itself). */
export function electronBinary(root = ROOT, exists = existsSync, read = readFileSync) {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!exists(pathFile)) return undefined;
  const binary = join(
    root,
    'node_modules',
    'electron',
    'dist',
    String(read(pathFile, 'utf8')).trim(),
  );
  return exists(binary) ? binary : undefined;
}

/** Whether a window can be shown: Linux needs an X or Wayland display; macOS and Windows have one. */
export function hasDisplay(platform, env) {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Desktop app or browser mode, and the one line that says why not the desktop app. */
export function decideLaunch({ binary, platform, env }) {
  if (env.LABELDESK_BROWSER_MODE === '1') {
    return { mode: 'browser', reason: 'LABELDESK_BROWSER_MODE=1 is set' };
  }
  if (!binary) {
    return {
      mode: 'browser',
      reason: 'the Electron binary is not installed (node_modules/electron/dist is missing)',
    };
  }
  if (!hasDisplay(platform, env)) {
    return {
      mode: 'browser',
      reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)',
    };
  }
  return { mode: 'electron', binary };
}

const SOURCES = [
  'electron',
  'renderer',
  'electron.vite.config.ts',
  'package.json',
  'tsconfig.node.json',
];
const OUTPUTS = [
  'build/electron/cli/main.js',
  'out/main/index.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
];

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true })) {
    newest = Math.max(newest, statSync(join(path, String(entry))).mtimeMs);
  }
  return newest;
}

/** Whether an output is missing or older than a source. */
export function buildIsStale(root = ROOT) {
  const outputs = OUTPUTS.map((file) => join(root, file));
  if (!outputs.every((file) => existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const sources = SOURCES.map((file) => join(root, file)).filter((file) => existsSync(file));
  return sources.some((file) => newestMtime(file) > built);
}

/** The one line that says why the desktop app does not open (each reason is a clause, no stop). */
export function browserModeLine(reason) {
  return `${reason}; starting browser mode instead.`;
}

function say(line) {
  process.stdout.write(`labeldesk: ${line}\n`);
}

function runToEnd(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

function main(args) {
  if (buildIsStale()) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const build = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  let decision = decideLaunch({
    binary: electronBinary(),
    platform: process.platform,
    env: process.env,
  });
  const problem = decision.mode === 'electron' ? buildElectronSqlite() : undefined;
  if (problem) decision = { mode: 'browser', reason: problem };
  if (decision.mode === 'electron') {
    const env = {
      ...process.env,
      LABELDESK_SQLITE_BINDING: BINDING,
    };
    // Set by some tools; it would make Electron behave as plain Node.
    delete env.ELECTRON_RUN_AS_NODE;
    runToEnd(decision.binary, [ROOT, ...args], env);
    return;
  }
  say(browserModeLine(decision.reason));
  runToEnd(process.execPath, [join(ROOT, 'bin', 'labeldesk.js'), 'app', ...args]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2));
}
