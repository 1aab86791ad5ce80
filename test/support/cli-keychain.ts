/**
 * The Secret Service as a user inspects it, with `secret-tool` (run the tests through
 * scripts/with-keychain.sh). LabelDesk stores every key under the attribute `service labeldesk`.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The keychain account of the embedded service's key. */
export const EMBEDDED_ACCOUNT = 'http://labeldesk-embedded.invalid';

/** Whether secret-tool is installed (libsecret-tools); it exits non-zero on --help, so only spawning counts. */
export function hasSecretTool(): boolean {
  return spawnSync('secret-tool', ['--help'], { stdio: 'ignore' }).error === undefined;
}

/** The secret stored for `account` under service labeldesk, or undefined. */
export async function lookupKey(account: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('secret-tool', [
      'lookup',
      'service',
      'labeldesk',
      'account',
      account,
    ]);
    return stdout || undefined;
  } catch {
    return undefined; // secret-tool exits 1 when nothing matches
  }
}

/** The accounts of every item stored under service labeldesk. */
export async function labeldeskAccounts(): Promise<string[]> {
  const { stdout, stderr } = await run('secret-tool', [
    'search',
    '--all',
    'service',
    'labeldesk',
  ]).catch((err: { stdout?: string; stderr?: string }) => ({
    stdout: err.stdout ?? '',
    stderr: err.stderr ?? '',
  }));
  // secret-tool prints the attributes on stdout and the secrets on stderr (or the reverse,
  // depending on the version); the account lines are what matter here.
  return [...`${stdout}\n${stderr}`.matchAll(/^attribute\.account = (.*)$/gm)].map(
    (m) => m[1] as string,
  );
}

export async function clearKey(account: string): Promise<void> {
  await run('secret-tool', ['clear', 'service', 'labeldesk', 'account', account]).catch(
    () => undefined,
  );
}

export async function storeKey(account: string, secret: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      'secret-tool',
      ['store', `--label=labeldesk/${account}`, 'service', 'labeldesk', 'account', account],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    child.stdin.end(secret);
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`secret-tool store exited ${code}`)),
    );
  });
}

/**
 * Takes the embedded service's key out of the keychain for a test that wants a first start, and
 * puts back whatever was there before (on a desktop session this is the user's own keyring).
 */
export async function setAsideEmbeddedKey(): Promise<() => Promise<void>> {
  const before = await lookupKey(EMBEDDED_ACCOUNT);
  await clearKey(EMBEDDED_ACCOUNT);
  return async () => {
    await clearKey(EMBEDDED_ACCOUNT);
    if (before) await storeKey(EMBEDDED_ACCOUNT, before);
  };
}

/** Every file below `dir` (SQLite, its -wal and -shm included) whose bytes contain `secret`. */
export async function filesContaining(dir: string, secret: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(secret)) hits.push(file);
  }
  return hits;
}
