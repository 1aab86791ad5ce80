/**
 * A machine without a keychain: the CLI runs with DBUS_SESSION_BUS_ADDRESS pointing nowhere, so
 * keytar finds no Secret Service. The embedded service's key is kept in memory for the run (one
 * line says so) and `label` works; `plan` and `export` need no key at all; a hosted service still
 * needs the keychain or LABELDESK_API_KEY, and says so.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { filesContaining } from '../../support/cli-keychain.js';
import { cliEnv, cliHome, lastJson, runCli, type SummaryJson } from '../../support/cli-run.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';

const NOTICE =
  "labeldesk: no OS keychain here, so the embedded service's key is kept in memory for this run only.";
const HOSTED_KEY = 'ldk_no_keychain_key_001';

let t: { home: string; dir: string; remove: () => Promise<void> };
let folder: string;
/** Other pictures, for the hosted service: the embedded run's results would be reused for these. */
let hostedFolder: string;
let serve: ServeProcess;
/** No Secret Service: the session bus address leads to a socket that does not exist. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await cliHome();
  folder = join(t.dir, 'photos');
  await mkdir(folder);
  await distinctJpegs(folder, 3);
  hostedFolder = join(t.dir, 'hosted-photos');
  await mkdir(hostedFolder);
  await distinctJpegs(hostedFolder, 3, 'other', 10);
  env = cliEnv(t.home, {
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(t.dir, 'no-such-bus')}`,
    LABELDESK_EMBEDDED_ENGINE: 'null',
  });
  serve = await runServe([
    '--engine',
    'null',
    '--data',
    join(t.dir, 'service-data'),
    '--key',
    `${HOSTED_KEY}:1000`,
  ]);
});
afterAll(async () => {
  await serve?.stop();
  await t?.remove();
});

describe('without a keychain', () => {
  it('plan and label work with the embedded service, its key kept in memory for the run', async () => {
    const plan = await runCli(['plan', folder, '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(lastJson(plan.stdout)).toMatchObject({ toLabel: { images: 3, frames: 12 } });

    const label = await runCli(['label', folder, '--yes', '--json'], env);
    expect(label.code, label.stderr).toBe(0);
    expect(lastJson<SummaryJson>(label.stdout)).toMatchObject({ labelled: 3, framesSpent: 12 });
    // One line, once, on stderr; nothing of it on stdout, which scripts parse.
    expect(label.stderr.split('\n').filter((l) => l === NOTICE)).toHaveLength(1);
    expect(label.stdout).not.toContain('keychain');

    const csv = join(t.dir, 'boxes.csv');
    const exported = await runCli(['export', '--format', 'csv', '--out', csv], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).not.toContain('keychain');

    // The key lived only in memory: no file under the library holds an ldk_ key.
    expect(await filesContaining(t.home, 'ldk_')).toEqual([]);
  }, 60_000);

  it('a hosted service: plan shows the estimate without credits, label asks for the keychain or LABELDESK_API_KEY', async () => {
    const plan = await runCli(['plan', hostedFolder, '--service', serve.url, '--json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(lastJson(plan.stdout)).toMatchObject({
      toLabel: { images: 3, frames: 12 },
      key: null,
      fits: null,
    });
    const text = await runCli(['plan', hostedFolder, '--service', serve.url], env);
    expect(text.stdout).toContain('3 images and 0 clips, about 12 frames');
    expect(text.stdout).toContain('No key for this service, so the frames left are not shown');

    const label = await runCli(['label', hostedFolder, '--service', serve.url, '--yes'], env);
    expect(label.code).toBe(1);
    expect(label.stderr).toContain('The OS keychain is not available');
    expect(label.stderr).toContain('LABELDESK_API_KEY');

    const withEnv = await runCli(
      ['label', hostedFolder, '--service', serve.url, '--yes', '--json'],
      {
        ...env,
        LABELDESK_API_KEY: HOSTED_KEY,
      },
    );
    expect(withEnv.code, withEnv.stderr).toBe(0);
    expect(lastJson<SummaryJson>(withEnv.stdout)).toMatchObject({ labelled: 3, framesSpent: 12 });
  }, 60_000);
});
