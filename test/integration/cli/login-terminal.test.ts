/**
 * `login` on a real pseudo-terminal (util-linux `script`): a prompt, and the key typed is never
 * echoed. `login --trial` never replaces a stored key silently: it asks on a terminal and needs
 * `--force` elsewhere. Keys live in a real gnome-keyring (scripts/with-keychain.sh).
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearKey, hasSecretTool, lookupKey } from '../../support/cli-keychain.js';
import { cliEnv, cliHome, runCli } from '../../support/cli-run.js';
import { CLI, runServe, type ServeProcess } from '../../support/run-serve.js';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI on a pseudo-terminal; `answer` is typed once `prompt` has been shown. */
async function onTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  prompt: RegExp,
  answer: string,
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    // Typed only after the prompt: the terminal is then in the mode the CLI chose.
    if (!typed && prompt.test(screen)) {
      typed = true;
      child.stdin.write(answer);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  child.stdin.destroy();
  return { code, screen };
}

describe.skipIf(!hasSecretTool() || !hasScript)('login on a terminal', () => {
  let t: { home: string; dir: string; remove: () => Promise<void> };
  let env: NodeJS.ProcessEnv;
  let serve: ServeProcess;
  const apiKey = 'ldk_terminal_login_key_42';

  beforeEach(async () => {
    t = await cliHome();
    env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
    serve = await runServe(['--engine', 'null', '--data', join(t.dir, 'svc'), '--key', apiKey]);
  });
  afterEach(async () => {
    await clearKey(serve.url);
    await serve.stop();
    await t.remove();
  });

  it('prompts "API key:" and does not echo what is typed', async () => {
    const r = await onTerminal(['login', '--service', serve.url], env, /API key: /, `${apiKey}\r`);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('API key: ');
    expect(r.screen).toContain('Key stored in the keychain');
    expect(r.screen).not.toContain(apiKey);
    expect(await lookupKey(serve.url)).toBe(apiKey);
  });

  it('Ctrl-C at the prompt exits 130 and stores nothing', async () => {
    const r = await onTerminal(['login', '--service', serve.url], env, /API key: /, 'ldk_\u0003');
    expect(r.code, r.screen).toBe(130);
    expect(await lookupKey(serve.url)).toBeUndefined();
  });

  it('login --trial keeps a stored key unless told: asked on a terminal, --force elsewhere', async () => {
    const piped = await runCli(['login', '--service', serve.url], env, { input: `${apiKey}\n` });
    expect(piped.code, piped.stderr).toBe(0);

    const refused = await runCli(['login', '--trial', '--service', serve.url], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`A key is already stored for ${serve.url}`);
    expect(refused.stderr).toContain('--force');
    expect(await lookupKey(serve.url)).toBe(apiKey);

    const declined = await onTerminal(
      ['login', '--trial', '--service', serve.url],
      env,
      /Replace it with a trial key\? \[y\/N\] /,
      'n\r',
    );
    expect(declined.code, declined.screen).toBe(0);
    expect(declined.screen).toContain('The stored key was kept.');
    expect(await lookupKey(serve.url)).toBe(apiKey);

    const forced = await runCli(['login', '--trial', '--force', '--service', serve.url], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await lookupKey(serve.url)).toMatch(/^ldt_/);
  });
});
