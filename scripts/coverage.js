#!/usr/bin/env node
// `npm run coverage`: the whole suite once, with line and branch coverage from three places merged
// into one report in coverage/: Vitest's own (code the tests import), the child processes' raw V8
// coverage (the CLI, the app, the embedded service; through c8) and the renderer's in Chromium
// (through v8-to-istanbul), both following the build's source maps back to the TypeScript.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';
import v8ToIstanbul from 'v8-to-istanbul';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'coverage');
const raw = join(out, 'raw-v8');
const SOURCES = ['electron/**/*.ts', 'renderer/src/**/*.{ts,tsx}'];

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(raw, { recursive: true });
if (run('npm', ['run', 'build'], { LABELDESK_COVERAGE: '1' }) !== 0) process.exit(1);

const include = SOURCES.flatMap((g) => ['--coverage.include', g]);
const testStatus = run(
  'bash',
  [
    'scripts/with-keychain.sh',
    'npx',
    'vitest',
    'run',
    '--coverage.enabled',
    '--coverage.provider=v8',
    '--coverage.reporter=json',
    `--coverage.reportsDirectory=${join(out, 'in-process')}`,
    ...include,
    ...process.argv.slice(2),
  ],
  { LABELDESK_CHILD_COVERAGE: raw },
);

const c8Include = SOURCES.flatMap((g) => ['--include', g]);
run('npx', [
  'c8',
  'report',
  '--temp-directory',
  raw,
  '--reports-dir',
  join(out, 'processes'),
  '--reporter',
  'json',
  '--exclude-after-remap',
  '--src',
  root,
  ...c8Include,
]);

const map = libCoverage.createCoverageMap({});
for (const part of ['in-process', 'processes']) {
  try {
    map.merge(JSON.parse(readFileSync(join(out, part, 'coverage-final.json'), 'utf8')));
  } catch {
    console.error(`coverage: no ${part} report`);
  }
}
const browserDir = join(out, 'raw-browser');
for (const name of existsSync(browserDir) ? readdirSync(browserDir) : []) {
  for (const script of JSON.parse(readFileSync(join(browserDir, name), 'utf8')).result) {
    const converter = v8ToIstanbul(new URL(script.url).pathname);
    await converter.load();
    converter.applyCoverage(script.functions);
    const files = converter.toIstanbul();
    for (const file of Object.keys(files)) {
      if (file.startsWith(join(root, 'renderer', 'src'))) map.merge({ [file]: files[file] });
    }
  }
}
writeFileSync(join(out, 'coverage-final.json'), JSON.stringify(map.toJSON()));
const context = libReport.createContext({ dir: out, coverageMap: map });
for (const kind of ['text-summary', 'html', 'json-summary']) reports.create(kind).execute(context);
console.log(`\ncoverage: ${join(out, 'index.html')} (lines and branches per file)`);
process.exit(testStatus);
