/**
 * One box shape, counted wide: every interface, type literal or zod object that declares a box's
 * members itself (x and y with w and h, or with width and height), whatever else it declares
 * beside them. A record that carries a box beside other fields derives from the shared one
 * (`interface X extends Box`, `BoxSchema.extend(...)`), so only the shared box, its schema and the
 * bounds of an edited box (the contract's `NormBox`) declare the members.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function declaresBox(members: readonly (ts.TypeElement | ts.ObjectLiteralElementLike)[]): boolean {
  const n = new Set(members.map((m) => (m.name && ts.isIdentifier(m.name) ? m.name.text : '')));
  return (
    n.has('x') && n.has('y') && ((n.has('w') && n.has('h')) || (n.has('width') && n.has('height')))
  );
}

/** `file:line kind` of each declaration of a box's members in `text`. */
export function boxLikeDeclarations(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, kind: string) =>
    found.push(
      `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${kind}`,
    );
  const visit = (node: ts.Node) => {
    if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) &&
      declaresBox(node.members)
    )
      at(node, 'interface');
    const arg = ts.isCallExpression(node) ? node.arguments[0] : undefined;
    if (
      ts.isCallExpression(node) &&
      /(^z\.object|\.extend)$/.test(node.expression.getText(source)) &&
      arg &&
      ts.isObjectLiteralExpression(arg) &&
      declaresBox(arg.properties)
    )
      at(node, 'zod object');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('box-like declarations', () => {
  it('finds a box declared beside other members, also as width and height (the count bites)', () => {
    const text = `interface A { id: number; x: number; y: number; w: number; h: number }
      type B = { x: number; y: number; width: number; height: number; label: string };
      const C = z.object({ label: z.string(), x: z.number(), y: z.number(), w: z.number(), h: z.number() });
      const D = Other.extend({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
      interface Derived extends Box { id: number }
      const E = BoxSchema.extend({ label: z.string() });
      interface Size { width: number; height: number }`;
    expect(boxLikeDeclarations(join(ROOT, 'x.ts'), text)).toEqual([
      'x.ts:1 interface',
      'x.ts:2 interface',
      'x.ts:3 zod object',
      'x.ts:4 zod object',
    ]);
  });

  it('are at most three: the shared box, its schema, the bounds of an edited box', () => {
    const files = [...sources(join(ROOT, 'electron')), ...sources(join(ROOT, 'renderer/src'))];
    const found = files.flatMap((f) => boxLikeDeclarations(f, readFileSync(f, 'utf8')));
    expect(found.map((f) => f.replace(/:\d+ /, ' '))).toEqual([
      'electron/shared/contract/review-schemas.ts zod object',
      'electron/shared/geometry/box.ts interface',
      'electron/shared/geometry/box.ts zod object',
    ]);
  });
});
