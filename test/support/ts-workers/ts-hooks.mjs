/**
 * Module hooks for worker threads started from TypeScript source in tests: a `.js` import that
 * names a `.ts` sibling (as our sources write them) resolves to it, and `.ts` is transpiled alone
 * (types stripped, no type check: `npm run typecheck` does that).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (specifier.endsWith('.js') && context.parentURL?.endsWith('.ts'))
      return next(`${specifier.slice(0, -3)}.ts`, context);
    throw err;
  }
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
