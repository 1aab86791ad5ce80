/**
 * Which modules a real CLI process loads: a loader hook appends every module URL to a log, and a
 * file of the CLI's bundle counts as the compiled modules it holds (from the bundle's own map).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Writes, in `dir`, a hook that appends every module URL the process loads to `log`; returns its --import. */
export async function moduleLogger(dir: string, log: string): Promise<string> {
  const hooks = join(dir, 'log-hooks.mjs');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(dir, 'log-register.mjs');
  await writeFile(
    register,
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});
`,
  );
  return register;
}

export const ROOT = new URL('../../', import.meta.url);
/** `npm run build:node` bundles the CLI here; a coverage build does not (the CLI runs tsc's files). */
export const BUNDLE = new URL('build/cli/', ROOT);

/** The module URLs a process loaded, each file of the bundle replaced by the modules it holds. */
export async function loadedModules(log: string): Promise<string[]> {
  const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  if (!existsSync(fileURLToPath(BUNDLE))) return urls;
  const held = JSON.parse(await readFile(new URL('modules.json', BUNDLE), 'utf8')) as Record<
    string,
    string[]
  >;
  return urls.flatMap((url) => {
    if (!url.startsWith(BUNDLE.href)) return [url];
    const ids = held[url.slice(BUNDLE.href.length)];
    if (!ids) throw new Error(`${url} is not in the bundle's map`);
    return ids.filter((id) => id.startsWith('build/')).map((id) => new URL(id, ROOT).href);
  });
}
