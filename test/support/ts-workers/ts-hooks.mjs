/**
 * Module hooks for worker threads started from TypeScript source in tests: a `.js` import that
 * names a `.ts` sibling (as our sources write them) resolves to it, and `.ts` is transpiled alone
 * (types stripped, no type check: `npm run typecheck` does that). Output is cached on disk by
 * path and mtime, and TypeScript is loaded only on a miss: each thread loading it would cost about
 * a second of CPU on these machines.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CACHE = fileURLToPath(new URL('../../../.cache/ts-workers/', import.meta.url));

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (specifier.endsWith('.js') && context.parentURL?.endsWith('.ts'))
      return next(`${specifier.slice(0, -3)}.ts`, context);
    throw err;
  }
}

async function transpile(fileName) {
  const { default: ts } = await import('typescript');
  return ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
    },
  }).outputText;
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const { mtimeMs, size } = await stat(fileName);
  const key = createHash('sha1').update(`${fileName}\0${mtimeMs}\0${size}`).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  let source;
  try {
    source = await readFile(cached, 'utf8');
  } catch {
    source = await transpile(fileName);
    await mkdir(CACHE, { recursive: true });
    // Written whole under a unique name first: another thread may read the same entry meanwhile.
    const tmp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(tmp, source);
    await rename(tmp, cached);
  }
  return { format: 'module', source, shortCircuit: true };
}
