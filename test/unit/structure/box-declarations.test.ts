/**
 * One box shape: the declarations of `{x, y, w, h}` (an interface or type literal with exactly
 * those members, or a zod object with exactly those keys) across electron/ and renderer/ stay at
 * the shared one (electron/shared/geometry/box.ts: an interface and its schema) and the bounds an
 * edit's box must keep (the contract's `NormBox`). Other names for the box are aliases of it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const XYWH = 'h,w,x,y';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const names = (members: readonly (ts.TypeElement | ts.ObjectLiteralElementLike)[]) =>
  members
    .map((m) => (m.name && ts.isIdentifier(m.name) ? m.name.text : '?'))
    .sort()
    .join(',');

/** `file:line kind` of each declaration of the box shape in `text`. */
export function boxDeclarations(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, kind: string) =>
    found.push(
      `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${kind}`,
    );
  const visit = (node: ts.Node) => {
    if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) &&
      names(node.members) === XYWH
    )
      at(node, 'interface');
    if (
      ts.isCallExpression(node) &&
      node.expression.getText(source) === 'z.object' &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0]) &&
      names(node.arguments[0].properties) === XYWH
    )
      at(node, 'zod object');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('box declarations', () => {
  it('finds an interface, a type literal and a zod object of the box shape (the count bites)', () => {
    const text = `interface A { x: number; y: number; w: number; h: number }
      type B = { y: number; x: number; h: number; w: number };
      const C = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
      interface NotABox { x: number; y: number; w: number; h: number; label: string }`;
    expect(boxDeclarations(join(ROOT, 'x.ts'), text)).toEqual([
      'x.ts:1 interface',
      'x.ts:2 interface',
      'x.ts:3 zod object',
    ]);
  });

  it('are at most three: the shared box, its schema, the bounds of an edited box', () => {
    const files = [...sources(join(ROOT, 'electron')), ...sources(join(ROOT, 'renderer/src'))];
    const found = files.flatMap((f) => boxDeclarations(f, readFileSync(f, 'utf8')));
    expect(found.map((f) => f.replace(/:\d+ /, ' '))).toEqual([
      'electron/shared/contract/review-schemas.ts zod object',
      'electron/shared/geometry/box.ts interface',
      'electron/shared/geometry/box.ts zod object',
    ]);
  });
});
