// Builds better-sqlite3 for Electron's ABI into build/electron-native/, beside (never over) the
// Node build the CLI and tests use. better-sqlite3 is not Node-API, so the desktop app loads this
// copy through its `nativeBinding` option. Tries a prebuilt binary first (prebuild-install), then
// compiles against Electron's headers (node-gyp). Both need the network the first time.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(ROOT, 'build', 'electron-native');
export const BINDING = join(OUT_DIR, 'better_sqlite3.node');
const STAMP = join(OUT_DIR, 'better_sqlite3.json');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** What the Electron build must match: Electron's version and ABI, better-sqlite3's version. */
export function wantedBuild(root = ROOT) {
  const electronDir = join(root, 'node_modules', 'electron');
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
  return {
    electron: readJson(join(electronDir, 'package.json')).version,
    abi: readFileSync(join(electronDir, 'abi_version'), 'utf8').trim(),
    betterSqlite3: readJson(join(sqliteDir, 'package.json')).version,
    platform: process.platform,
    arch: process.arch,
  };
}

export function isUpToDate(wanted, stampFile = STAMP, bindingFile = BINDING) {
  if (!existsSync(bindingFile) || !existsSync(stampFile)) return false;
  const stamp = readJson(stampFile);
  return Object.keys(wanted).every((key) => stamp[key] === wanted[key]);
}

/**
 * Whether `file` is a native module for ABI `abi`: Node refuses to load another ABI's module and
 * names that module's NODE_MODULE_VERSION, which is the check (loading it would mean Node's ABI).
 */
export function builtForAbi(file, abi) {
  try {
    process.dlopen({ exports: {} }, file);
    return false;
  } catch (err) {
    return String(err?.message).includes(`NODE_MODULE_VERSION ${abi}.`);
  }
}

function run(command, args, cwd, env, verbose) {
  const result = spawnSync(command, args, { cwd, env, stdio: verbose ? 'inherit' : 'pipe' });
  return result.status === 0;
}

function nodeGypScript() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ];
  return candidates.find((file) => file && existsSync(file));
}

/**
 * Why no Electron build could be made, as a clause without a final stop: callers end the line
 * (`npm start` goes on with "; starting browser mode instead.", this script with a full stop).
 */
export function cannotBuild(wanted) {
  return `could not build better-sqlite3 for Electron ${wanted.electron} (no prebuilt binary could be downloaded and Electron's headers could not be fetched to compile one); run \`node scripts/electron-sqlite.js --verbose\` with network access to see why`;
}

/** The script's own line when it fails. */
export function failureLine(problem) {
  return `electron-sqlite: ${problem}.\n`;
}

/** Builds into OUT_DIR; returns undefined on success, or the clause saying why it could not. */
export function buildElectronSqlite({ verbose = false, root = ROOT } = {}) {
  const wanted = wantedBuild(root);
  if (isUpToDate(wanted)) return undefined;
  const work = join(OUT_DIR, 'work', 'better-sqlite3');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const source = join(root, 'node_modules', 'better-sqlite3');
  for (const entry of ['package.json', 'binding.gyp', 'src', 'lib', 'deps']) {
    cpSync(join(source, entry), join(work, entry), { recursive: true });
  }
  // npm's `nodedir` (set on these machines) would silently compile against Node's headers instead.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_config_(nodedir|target|runtime|disturl|arch)$/i.test(key),
    ),
  );
  const target = ['--target', wanted.electron, '--arch', wanted.arch];
  const require = createRequire(import.meta.url);
  const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
  const built = join(work, 'build', 'Release', 'better_sqlite3.node');
  const gyp = nodeGypScript();
  const ok =
    run(
      process.execPath,
      [prebuild, '--runtime', 'electron', ...target, '--platform', wanted.platform],
      work,
      env,
      verbose,
    ) ||
    (gyp !== undefined &&
      run(
        process.execPath,
        [
          gyp,
          'rebuild',
          '--release',
          `--target=${wanted.electron}`,
          `--arch=${wanted.arch}`,
          '--dist-url=https://electronjs.org/headers',
        ],
        work,
        env,
        verbose,
      ));
  if (!ok || !existsSync(built) || !builtForAbi(built, wanted.abi)) {
    rmSync(join(OUT_DIR, 'work'), { recursive: true, force: true });
    return cannotBuild(wanted);
  }
  cpSync(built, BINDING);
  writeFileSync(STAMP, JSON.stringify(wanted, null, 2) + '\n');
  rmSync(join(OUT_DIR, 'work'), { recursive: true, force: true });
  return undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = buildElectronSqlite({ verbose: process.argv.includes('--verbose') });
  if (problem) {
    process.stderr.write(failureLine(problem));
    process.exit(1);
  }
  process.stdout.write(`electron-sqlite: ${BINDING}\n`);
}
