/** Finds the JavaScript file a `worker_threads` Worker should run. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A Worker needs JavaScript, but tests run our TypeScript source directly (Vitest transpiles it in
 * memory, which a new thread cannot share). So when the caller is a `.ts` file we point at the
 * output of `npm run build:node` instead: `<root>/electron/a/b.ts` → `<root>/build/electron/a/<jsName>`.
 * When the caller is already compiled, the worker is simply its sibling.
 */
export function resolveWorkerScript(importMetaUrl: string, jsName: string): URL {
  const callerPath = fileURLToPath(importMetaUrl);
  if (!callerPath.endsWith('.ts')) return new URL(`./${jsName}`, importMetaUrl);
  const dir = path.dirname(callerPath) + path.sep;
  const marker = `${path.sep}electron${path.sep}`;
  const at = dir.lastIndexOf(marker);
  if (at < 0) throw new Error(`Cannot map ${callerPath} to its compiled build/ path`);
  const compiled = path.join(dir.slice(0, at), 'build', dir.slice(at + 1), jsName);
  return pathToFileURL(compiled);
}

/**
 * The script a Worker runs: resolveWorkerScript's, except under the test hooks that let threads
 * run TypeScript (test/support/ts-workers, which set LABELDESK_WORKERS_FROM_SOURCE): then a `.ts`
 * caller's worker is its `.ts` sibling, so a unit test runs the source it reads and needs no build
 * (nor runs a stale one).
 */
export function workerScript(importMetaUrl: string, jsName: string): URL {
  if (importMetaUrl.endsWith('.ts') && process.env['LABELDESK_WORKERS_FROM_SOURCE'] === '1')
    return new URL(`./${jsName.replace(/\.js$/, '.ts')}`, importMetaUrl);
  return resolveWorkerScript(importMetaUrl, jsName);
}

/** Same as workerScript, but fails with a useful hint when the build is missing. */
export function requireWorkerScript(importMetaUrl: string, jsName: string): URL {
  const url = workerScript(importMetaUrl, jsName);
  if (!existsSync(url)) {
    throw new Error(`Worker script ${fileURLToPath(url)} is missing: run \`npm run build:node\``);
  }
  return url;
}
