/**
 * Start-up is part of every `labeldesk label`: a run against a hosted service loads what labelling
 * needs and nothing of the other commands (export writers, the embedded service, the browser
 * bridge, image decoding, the contract's schemas, the folder watcher). The modules are recorded
 * by a loader hook in the real process (a file of the CLI's bundle counts as the compiled modules it
 * holds, from the bundle's own map); the overall help still lists every command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli, type SummaryJson } from '../../support/cli-run.js';
import { BUNDLE, loadedModules, moduleLogger } from '../../support/module-log.js';
import { CLI, runServe, type ServeProcess } from '../../support/run-serve.js';

let t: { home: string; dir: string; remove: () => Promise<void> };
let serve: ServeProcess | undefined;

beforeEach(async () => {
  t = await cliHome();
});
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  await t.remove();
});

/**
 * Runs the CLI with the module logger; returns the process, the modules it loaded and Node's own
 * built-in modules it loaded (by import or require: `process.moduleLoadList` at exit).
 */
async function runLogged(args: string[], env: NodeJS.ProcessEnv) {
  const log = join(t.dir, 'modules.log');
  const register = await moduleLogger(t.dir, log);
  const builtinsLog = join(t.dir, 'builtins.log');
  const builtins = join(t.dir, 'builtins.mjs');
  await writeFile(
    builtins,
    `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(${JSON.stringify(builtinsLog)}, process.moduleLoadList.join('\\n')));
`,
  );
  const r = spawnSync(
    process.execPath,
    ['--import', register, '--import', builtins, CLI, ...args],
    {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  const raw = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const native = (await readFile(builtinsLog, 'utf8')).split('\n');
  return { r, raw, loaded: await loadedModules(log), native };
}

const NOT_FOR_LABELLING = [
  /node_modules\/(zod|sharp|ws|busboy|chokidar|@tensorflow|@vladmandic)\//,
  /\/electron\/local-service\//,
  /\/electron\/application\/browser\//,
  /\/electron\/core\/export\/[a-z-]+-writer\.js$/,
  /\/electron\/shared\/contract\/[a-z-]+-schemas\.js$/,
];

describe('labeldesk label start-up', () => {
  it('labels against a hosted service without loading what other commands need', async () => {
    const folder = join(t.dir, 'photos');
    const key = 'ldk_startup_test_0123456789abcdef';
    await mkdir(folder);
    await distinctJpegs(folder, 3);
    serve = await runServe(['--engine', 'null', '--data', join(t.dir, 'data'), '--key', key]);
    const { r, raw, loaded, native } = await runLogged(
      ['label', folder, '--service', serve.url, '--yes', '--json'],
      cliEnv(t.home, { LABELDESK_API_KEY: key }),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(lastJson<SummaryJson>(r.stdout)).toMatchObject({ labelled: 3, failed: [] });
    // The bundle, when built, is what runs (its workers run tsc's files beside it).
    if (existsSync(fileURLToPath(BUNDLE))) expect(raw).toContain(new URL('main.js', BUNDLE).href);
    expect(loaded.some((u) => u.endsWith('/cli/commands/label-command.js'))).toBe(true);
    const extra = loaded.filter((u) => NOT_FOR_LABELLING.some((re) => re.test(u)));
    expect(extra).toEqual([]);
    // Nor the other commands' modules.
    expect(loaded.filter((u) => /\/cli\/(commands\/(?!label-)|serve-command)/.test(u))).toEqual([]);
    // An http service: no TLS is loaded (https and tls cost every run's start-up otherwise).
    expect(native).toContain('NativeModule http');
    expect(native.filter((m) => /^NativeModule (https|tls)$/.test(m))).toEqual([]);
  });

  it('prints the version without loading any command', async () => {
    const { r, loaded } = await runLogged(['--version'], cliEnv(t.home));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(loaded.some((u) => u.endsWith('/build/electron/cli/main.js'))).toBe(true);
    expect(loaded.filter((u) => /\/cli\/(commands\/|serve-command)/.test(u))).toEqual([]);
  });

  it('still lists every command in the overall help', async () => {
    const r = await runCli(['--help'], cliEnv(t.home));
    expect(r.code).toBe(0);
    for (const name of [
      'serve',
      'label',
      'plan',
      'status',
      'doctor',
      'login',
      'logout',
      'export',
      'import',
      'evaluate',
      'auto-accept',
      'jobs',
      'app',
    ])
      expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });
});
