// Runs Credentials in a fresh Node process, so the tests prove a key survives the process that
// stored it and can be run with a broken D-Bus environment. Node 20 cannot import .ts, so the
// credentials folder (and the shared helpers it imports, at the same relative place) is
// transpiled into the git-ignored <repo>/.cache (where keytar and better-sqlite3 resolve from
// node_modules).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..', '..', '..');
const credentialsDir = path.join(repoRoot, 'electron', 'core', 'credentials');
const sharedDir = path.join(repoRoot, 'electron', 'shared');
/** The shared modules the credentials import (`../../shared/…` from core/credentials). */
const SHARED_IMPORTS = ['error-message.ts'];

const CHILD_MAIN = `
import { createHash } from 'node:crypto';
import { Credentials } from './core/credentials/credentials.js';
import { KeytarStore } from './core/credentials/keytar-store.js';
import { openSqliteSettings } from './sqlite-settings.js';

// Only hashes of keys are printed: test output must not carry secrets either.
const hash = (key) => createHash('sha256').update(key).digest('hex');
const [action, url] = process.argv.slice(2);
const settings = openSqliteSettings(process.env.LABELDESK_HOME);
const credentials = new Credentials({ store: new KeytarStore(), settings });
try {
  credentials.deviceId();
  let result;
  if (action === 'save') {
    await credentials.saveKey(url, process.env.CHILD_SECRET);
    result = { saved: true };
  } else if (action === 'resolve') {
    const found = await credentials.resolveKey(url);
    result = found ? { source: found.source, sha256: hash(found.key) } : { source: null };
  } else if (action === 'embedded') {
    const key = await credentials.ensureEmbeddedKey(url);
    result = { sha256: hash(key), prefix: key.slice(0, 4) };
  } else {
    throw new Error('unknown action ' + action);
  }
  console.log(JSON.stringify(result));
} catch (err) {
  console.log(JSON.stringify({ error: { name: err.name, code: err.code, failure: err.failure, message: err.message } }));
} finally {
  settings.close();
}
`;

export interface ChildRunner {
  run(
    args: string[],
    env: NodeJS.ProcessEnv,
    wrap?: string[],
  ): Promise<{ out: any; stderr: string; code: number | null }>;
  remove(): Promise<void>;
}

export async function buildChildRunner(): Promise<ChildRunner> {
  const cache = path.join(repoRoot, '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(path.join(cache, 'credentials-child-'));
  await mkdir(path.join(dir, 'core', 'credentials'), { recursive: true });
  await mkdir(path.join(dir, 'shared'));
  const compile = async (from: string, to: string) => {
    const source = await readFile(from, 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: from,
    });
    await writeFile(to, outputText);
  };
  for (const name of await readdir(credentialsDir)) {
    if (!name.endsWith('.ts')) continue;
    await compile(
      path.join(credentialsDir, name),
      path.join(dir, 'core', 'credentials', name.replace(/\.ts$/, '.js')),
    );
  }
  for (const name of SHARED_IMPORTS) {
    await compile(
      path.join(sharedDir, name),
      path.join(dir, 'shared', name.replace(/\.ts$/, '.js')),
    );
  }
  await compile(path.join(here, 'sqlite-settings.ts'), path.join(dir, 'sqlite-settings.js'));
  const main = path.join(dir, 'main.mjs');
  await writeFile(main, CHILD_MAIN);

  return {
    run: (args, env, wrap = []) =>
      new Promise((resolve, reject) => {
        const argv = [...wrap, process.execPath, main, ...args];
        const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => {
          const line = stdout.trim().split('\n').pop() ?? '';
          try {
            resolve({ out: JSON.parse(line), stderr, code });
          } catch {
            reject(new Error(`child printed no JSON (exit ${code}): ${stdout}\n${stderr}`));
          }
        });
      }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
