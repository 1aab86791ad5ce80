/**
 * Start-up is part of every `labeldesk label`: a run against a hosted service loads what labelling
 * needs and nothing of the other commands (export writers, the embedded service, the browser
 * bridge, image decoding, the contract's schemas, the folder watcher). The modules are recorded
 * by a loader hook in the real process; the overall help still lists every command.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliEnv, cliHome, lastJson, runCli, type SummaryJson } from '../../support/cli-run.js';
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

/** Writes a hook that appends every module URL the process loads to `log`; returns its --import. */
async function moduleLogger(log: string): Promise<string> {
  const hooks = join(t.dir, 'log-hooks.mjs');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(t.dir, 'log-register.mjs');
  await writeFile(
    register,
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});
`,
  );
  return register;
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
    const log = join(t.dir, 'modules.log');
    const register = await moduleLogger(log);
    const r = spawnSync(
      process.execPath,
      ['--import', register, CLI, 'label', folder, '--service', serve.url, '--yes', '--json'],
      { env: cliEnv(t.home, { LABELDESK_API_KEY: key }), encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(lastJson<SummaryJson>(r.stdout)).toMatchObject({ labelled: 3, failed: [] });
    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    expect(loaded.some((u) => u.endsWith('/cli/commands/label-command.js'))).toBe(true);
    const extra = loaded.filter((u) => NOT_FOR_LABELLING.some((re) => re.test(u)));
    expect(extra).toEqual([]);
    // Nor the other commands' modules.
    expect(loaded.filter((u) => /\/cli\/(commands\/(?!label-)|serve-command)/.test(u))).toEqual([]);
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
