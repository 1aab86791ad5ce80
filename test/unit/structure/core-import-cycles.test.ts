/**
 * No import circle in electron/core: every file's relative imports (type-only ones too, as
 * TypeScript's own pre-processor reads them) form a graph without a cycle, so each module can be
 * read, tested and changed from the bottom up.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** file → the files under `dir` it imports (relative specifiers, `.js` written for `.ts`). */
export function importGraph(dir: string): Map<string, string[]> {
  const files = new Set(sources(dir));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts'))
      .filter((target) => files.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Each cycle found (as a list of files), by a depth-first walk; empty when there is none. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('electron/core imports', () => {
  it('finds a cycle when there is one (the check bites)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('has no import circle', () => {
    const graph = importGraph(join(ROOT, 'electron/core'));
    expect(graph.size).toBeGreaterThan(100);
    const named = cycles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' → '));
    expect(named).toEqual([]);
  });

  it('store imports only electron/shared, electron/node-lib and itself', () => {
    const store = join(ROOT, 'electron/core/store');
    const outside = sources(store).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => relative(ROOT, resolve(dirname(file), name)))
        .filter(
          (path) =>
            !path.startsWith('electron/core/store/') &&
            !path.startsWith('electron/shared/') &&
            !path.startsWith('electron/node-lib/'),
        )
        .map((path) => `${relative(ROOT, file)} imports ${path}`),
    );
    expect(outside).toEqual([]);
  });
});
