// Credentials against the REAL Secret Service (gnome-keyring). Run through the wrapper, which
// provides a throwaway unlocked keyring when the machine has none:
//   bash scripts/with-keychain.sh npx vitest run test/integration/core/credentials
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Credentials } from '../../../../electron/core/credentials/credentials.js';
import { KeytarStore } from '../../../../electron/core/credentials/keytar-store.js';
import { tempDir } from '../../../support/temp-dir.js';
import { buildChildRunner, type ChildRunner } from './child-runner.js';
import { openSqliteSettings, type SqliteSettings } from './sqlite-settings.js';

const hasSecretTool = spawnSync('secret-tool', ['--help'], { stdio: 'ignore' }).error === undefined;
if (!hasSecretTool) {
  console.warn(
    'Skipping keychain tests: secret-tool is not installed (apt-get install libsecret-tools).',
  );
}

function secretTool(args: string[], input?: string) {
  const r = spawnSync('secret-tool', args, { input, encoding: 'utf8', timeout: 10_000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const lookup = (account: string) =>
  secretTool(['lookup', 'service', 'labeldesk', 'account', account]);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const testKey = () => `ldk_${randomBytes(24).toString('base64url')}`;

/** Every file below `dir` whose bytes contain `secret`. */
async function filesContaining(dir: string, secret: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(secret)) hits.push(file);
  }
  return hits;
}

/**
 * A child environment with no key from the parent and no way to reach a display prompt; `drop`
 * removes more inherited variables.
 */
function childEnv(home: string, extra: NodeJS.ProcessEnv = {}, drop: string[] = []) {
  const dropped = new Set(['LABELDESK_API_KEY', 'DISPLAY', 'WAYLAND_DISPLAY', ...drop]);
  const inherited = Object.entries(process.env).filter(([name]) => !dropped.has(name));
  return { ...Object.fromEntries(inherited), LABELDESK_HOME: home, ...extra } as NodeJS.ProcessEnv;
}

describe.skipIf(!hasSecretTool)('credentials in the real keychain', () => {
  // Unique per run: on a desktop these land in the user's own keyring and are cleared afterwards.
  const run = randomBytes(4).toString('hex');
  const hosted = `https://it-${run}.example.test/v1`;
  const embedded = `http://127.0.0.1:${40_000 + (randomBytes(2).readUInt16BE() % 20_000)}`;
  const keys: string[] = [];
  let home: { dir: string; remove: () => Promise<void> };
  let settings: SqliteSettings;
  let credentials: Credentials;
  let child: ChildRunner;

  beforeAll(async () => {
    const probe = secretTool(
      ['store', '--label=probe', 'service', 'labeldesk-probe', 'account', run],
      'x',
    );
    if (probe.status !== 0) {
      throw new Error(
        `No writable Secret Service (${probe.stderr.trim()}). Run the tests through ` +
          '`bash scripts/with-keychain.sh npx vitest run test/integration/core/credentials`.',
      );
    }
    secretTool(['clear', 'service', 'labeldesk-probe', 'account', run]);
    home = await tempDir('labeldesk-keychain-');
    settings = openSqliteSettings(home.dir);
    credentials = new Credentials({ store: new KeytarStore(), settings, env: {} });
    child = await buildChildRunner();
  });

  afterAll(async () => {
    for (const account of [hosted, embedded]) {
      secretTool(['clear', 'service', 'labeldesk', 'account', account]);
    }
    settings?.close();
    await home?.remove();
    await child?.remove();
  });

  it('stores the key under service=labeldesk, account=<normalised base URL>', async () => {
    const key = testKey();
    keys.push(key);
    await credentials.saveKey(`HTTPS://IT-${run}.Example.TEST:443/v1/`, key);
    const found = lookup(hosted);
    expect(found.status).toBe(0);
    expect(found.stdout.trim()).toBe(key);
    expect(await credentials.resolveKey(hosted)).toEqual({ key, source: 'keychain' });
  });

  it('a fresh process reads the key back from the keychain', async () => {
    const { out } = await child.run(['resolve', hosted], childEnv(home.dir));
    expect(out).toEqual({ source: 'keychain', sha256: sha256(keys[0]!) });
  });

  it('LABELDESK_API_KEY wins for one run and is not stored', async () => {
    const envKey = testKey();
    keys.push(envKey);
    const env = childEnv(home.dir, { LABELDESK_API_KEY: envKey });
    const { out } = await child.run(['resolve', hosted], env);
    expect(out).toEqual({ source: 'env', sha256: sha256(envKey) });
    expect(lookup(hosted).stdout.trim()).toBe(keys[0]);
  });

  it('the embedded key is created once and shared by later processes', async () => {
    const first = await child.run(['embedded', embedded], childEnv(home.dir));
    const second = await child.run(['embedded', embedded], childEnv(home.dir));
    expect(first.out.prefix).toBe('ldk_');
    expect(second.out.sha256).toBe(first.out.sha256);
    const stored = lookup(embedded).stdout.trim();
    expect(sha256(stored)).toBe(first.out.sha256);
    keys.push(stored);
    expect(await credentials.ensureEmbeddedKey(embedded)).toBe(stored);
  });

  it('forget deletes the keychain entry', async () => {
    expect(await credentials.forget(hosted)).toBe(true);
    expect(lookup(hosted).status).not.toBe(0);
    expect((await child.run(['resolve', hosted], childEnv(home.dir))).out).toEqual({
      source: null,
    });
    expect(await credentials.forget(hosted)).toBe(false);
  });

  it('no file under LABELDESK_HOME contains any key (SQLite and WAL included)', async () => {
    expect(settings.get('deviceId')).toMatch(/^[0-9a-f-]{36}$/);
    const names = await readdir(home.dir);
    expect(names).toContain('library.sqlite');
    for (const key of keys) expect(await filesContaining(home.dir, key)).toEqual([]);
  });

  it('with the Secret Service unreachable: KeychainUnavailableError with the fix, nothing on disk', async () => {
    const offline = path.join(home.dir, 'offline');
    await mkdir(offline);
    const key = testKey();
    const env = childEnv(offline, {
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      CHILD_SECRET: key,
    });
    const saved = await child.run(['save', hosted], env);
    expect(saved.out.error).toMatchObject({
      name: 'KeychainUnavailableError',
      code: 'keychain_unavailable',
      failure: 'unreachable',
    });
    expect(saved.out.error.message).toMatch(/gnome-keyring/);
    expect(saved.out.error.message).toContain('LABELDESK_API_KEY');
    expect(saved.out.error.message).not.toContain(key);
    expect((await child.run(['resolve', hosted], env)).out.error.code).toBe('keychain_unavailable');
    expect(await filesContaining(home.dir, key)).toEqual([]);
    expect(lookup(hosted).status).not.toBe(0);

    const oneRun = await child.run(['resolve', hosted], { ...env, LABELDESK_API_KEY: key });
    expect(oneRun.out).toEqual({ source: 'env', sha256: sha256(key) });
    expect(await filesContaining(home.dir, key)).toEqual([]);
  });

  it('with a D-Bus session but no unlocked keyring: the same clear error', async () => {
    const locked = path.join(home.dir, 'locked');
    await mkdir(path.join(locked, 'home'), { recursive: true });
    const key = testKey();
    // D-Bus activation starts a gnome-keyring with no login collection; HOME keeps its files here.
    const env = childEnv(locked, { HOME: path.join(locked, 'home'), CHILD_SECRET: key }, [
      'DBUS_SESSION_BUS_ADDRESS',
      'XDG_DATA_HOME',
      'XDG_RUNTIME_DIR',
    ]);
    const saved = await child.run(['save', hosted], env, ['dbus-run-session', '--']);
    expect(saved.out.error?.code).toBe('keychain_unavailable');
    expect(saved.out.error.message).toContain('LABELDESK_API_KEY');
    expect(await filesContaining(home.dir, key)).toEqual([]);
  });
});
