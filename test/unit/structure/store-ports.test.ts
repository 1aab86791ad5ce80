/**
 * Narrow store ports (issue 22): production code names the port it uses
 * (electron/core/store/store-ports.ts, or a use's own Pick of it), not the whole `LibraryStore`.
 * The whole stays where it is defined and implemented (core/store), where it is opened
 * (the openers and composition roots below), and in the files not converted yet, whose number
 * may only go down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Where the whole store is rightly named: its definition, its openers, the composition roots. */
const ROOTS = [
  /^electron\/core\/store\//,
  /^electron\/core\/review\/open-library-store\.ts$/,
  /^electron\/application\/app-context\.ts$/,
  /^electron\/main\//,
];

/** Files outside ROOTS still naming `LibraryStore` (57 before the ports). */
const AT_MOST = 12;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Whether the code (not a comment or a string) names the identifier `LibraryStore`. */
export function namesLibraryStore(file: string, text: string): boolean {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): boolean =>
    (ts.isIdentifier(node) && node.text === 'LibraryStore') ||
    (ts.forEachChild(node, visit) ?? false);
  return visit(source);
}

describe('store ports', () => {
  it('finds the whole store named in code, not in a comment or a longer name (the check bites)', () => {
    const named = `import type { LibraryStore } from './store-types.js';
      export function f(store: LibraryStore) { return store; }`;
    const aPort = `// takes a port, not the LibraryStore
      import type { LibraryStoreOptions } from './open-library-database.js';
      export function f(store: Pick<Whole, 'media'>, o: LibraryStoreOptions) { return [store, o]; }`;
    expect(namesLibraryStore('a.ts', named)).toBe(true);
    expect(namesLibraryStore('b.ts', aPort)).toBe(false);
  });

  it(`is named by at most ${AT_MOST} production files outside its definition and roots`, () => {
    const outside = sources(join(ROOT, 'electron'))
      .map((f) => relative(ROOT, f).split('\\').join('/'))
      .filter((f) => !ROOTS.some((r) => r.test(f)))
      .filter((f) => namesLibraryStore(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(outside.length, outside.join('\n')).toBeLessThanOrEqual(AT_MOST);
  });
});
