/**
 * Keys as a user sees them: in the OS keychain (a real gnome-keyring through
 * scripts/with-keychain.sh, inspected with secret-tool) and nowhere else — not in any file under
 * LABELDESK_HOME, not in any output except where a key is meant to be shown.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EMBEDDED_ACCOUNT,
  filesContaining,
  hasSecretTool,
  labeldeskAccounts,
  lookupKey,
  setAsideEmbeddedKey,
} from '../../support/cli-keychain.js';
import { distinctJpegs } from '../../support/cli-media.js';
import {
  cliEnv,
  cliHome,
  cliJson,
  runCli,
  type CliResult,
  type StatusJson,
} from '../../support/cli-run.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';

const secretTool = hasSecretTool();

let t: { home: string; dir: string; remove: () => Promise<void> };
let env: NodeJS.ProcessEnv;
/** Everything the CLI printed in a test, to check no key leaked into it. */
let printed: string[];

const run = async (args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) => {
  const r: CliResult = await runCli(args, options.env ?? env, options);
  printed.push(r.stdout, r.stderr);
  return r;
};

beforeEach(async () => {
  t = await cliHome();
  env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  printed = [];
});
afterEach(() => t.remove());

describe.skipIf(!secretTool)('keys in the keychain', () => {
  let restoreEmbedded: () => Promise<void>;
  beforeAll(async () => {
    restoreEmbedded = await setAsideEmbeddedKey();
  });
  afterAll(() => restoreEmbedded());

  it('the embedded service key is created once, kept under service labeldesk, and reused', async () => {
    const folder = join(t.dir, 'photos');
    await mkdir(folder);
    await distinctJpegs(folder, 2);
    expect(await lookupKey(EMBEDDED_ACCOUNT)).toBeUndefined();

    const first = await run(['label', folder, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const key = await lookupKey(EMBEDDED_ACCOUNT);
    expect(key).toMatch(/^ldk_[A-Za-z0-9_-]{40,}$/);
    expect(await labeldeskAccounts()).toContain(EMBEDDED_ACCOUNT);

    // A second run (and other commands) use the same key: the balance carries on.
    const status = await cliJson<StatusJson>(['status'], env);
    expect(status.remaining).toBe(100_000 - 8);
    const second = await run(['label', folder, '--yes']);
    expect(second.stdout).toMatch(/reused 2/);
    expect(await lookupKey(EMBEDDED_ACCOUNT)).toBe(key);
    expect((await cliJson<StatusJson>(['status'], env)).remaining).toBe(100_000 - 8);

    // `login` without --service has nothing to do; the key is never printed.
    const login = await run(['login']);
    expect(login.stdout).toContain('needs no login');

    const k = key as string;
    expect(await filesContaining(t.home, k)).toEqual([]);
    for (const text of printed) expect(text).not.toContain(k);
  });

  describe('login and logout against `labeldesk serve`', () => {
    let serve: ServeProcess;
    const apiKey = 'ldk_cli_login_key_0001';
    beforeEach(async () => {
      serve = await runServe([
        '--engine',
        'null',
        '--data',
        join(t.dir, 'service'),
        '--key',
        `${apiKey}:500`,
      ]);
    });
    afterEach(async () => {
      await runCli(['logout', '--service', serve.url], env);
      await serve.stop();
    });

    it('a wrong key is refused and not stored; the right one piped on stdin is stored', async () => {
      const wrong = await run(['login', '--service', serve.url], {
        input: 'ldk_not_a_real_key_123\n',
      });
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/not known/);
      expect(await lookupKey(serve.url)).toBeUndefined();
      expect(await labeldeskAccounts()).not.toContain(serve.url);

      const empty = await run(['login', '--service', serve.url], { input: '\n' });
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain('No key was given');

      const ok = await run(['login', '--service', serve.url], { input: `${apiKey}\n` });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('Key stored in the keychain (api_key, 500 frames left)');
      expect(await lookupKey(serve.url)).toBe(apiKey);

      // Later commands find it by the service URL, however it is spelled.
      const status = await run(['status', '--service', `${serve.url}/`, '--json']);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ audience: 'api_key', remaining: 500 });

      const out = await run(['logout', '--service', serve.url]);
      expect(out.stdout).toContain('Key removed from the keychain.');
      expect(await lookupKey(serve.url)).toBeUndefined();
      const again = await run(['logout', '--service', serve.url]);
      expect(again.stdout).toContain('There was no key for that service.');
      // Without a key, status still answers health and version, and says the key is missing.
      const after = await run(['status', '--service', serve.url]);
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout).toContain('Key: no key stored');

      expect(await filesContaining(t.home, apiKey)).toEqual([]);
      const wrongKey = 'ldk_not_a_real_key_123';
      expect(await filesContaining(t.home, wrongKey)).toEqual([]);
      for (const text of printed) {
        expect(text).not.toContain(apiKey);
        expect(text).not.toContain(wrongKey);
      }
    });

    it('login --trial stores a trial key; status shows trial_key; logout removes it', async () => {
      const trial = await run(['login', '--trial', '--service', serve.url]);
      expect(trial.code, trial.stderr).toBe(0);
      expect(trial.stdout).toMatch(/^Trial key stored in the keychain: \d+ frames, until \d{4}-/);
      const key = await lookupKey(serve.url);
      expect(key).toMatch(/^ldt_/);

      const status = await run(['status', '--service', serve.url, '--json']);
      const s = JSON.parse(status.stdout) as StatusJson;
      expect(s).toMatchObject({ audience: 'trial_key' });
      expect(s.remaining).toBeGreaterThan(0);
      expect(Date.parse(s.expiresAt as string)).toBeGreaterThan(Date.now());

      // A run with the trial key spends from it.
      const folder = join(t.dir, 'photos');
      await mkdir(folder);
      await distinctJpegs(folder, 1);
      const label = await run(['label', folder, '--service', serve.url, '--yes']);
      expect(label.code, label.stderr).toBe(0);
      const after = JSON.parse((await run(['status', '--service', serve.url, '--json'])).stdout);
      expect(after.remaining).toBe(s.remaining - 4);

      await run(['logout', '--service', serve.url]);
      expect(await lookupKey(serve.url)).toBeUndefined();

      const k = key as string;
      expect(await filesContaining(t.home, k)).toEqual([]);
      for (const text of printed) expect(text).not.toContain(k);
      expect(serve.stdout() + serve.stderr()).not.toContain(k);
    });
  });
});
