/**
 * Issue 27 §3: a native module Node cannot load is one line with the way out, never Node's or
 * `bindings`' several lines printed with literal `\n`s.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../../electron/cli/cli-errors.js';

const require = createRequire(import.meta.url);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The error a call throws. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('a native module that cannot be loaded', () => {
  it('whose build is missing (what bindings throws) is one line naming the module and the fix', () => {
    const root = mkdtempSync(join(tmpdir(), 'labeldesk-native-'));
    dirs.push(root);
    const moduleRoot = join(root, 'node_modules', 'better-sqlite3');
    const bindings = require('bindings') as (o: object) => unknown;
    const err = thrown(() =>
      bindings({ bindings: 'better_sqlite3.node', module_root: moduleRoot }),
    );
    expect((err as Error).message).toMatch(/\n/);
    const line = describeError(err, undefined);
    expect(line).not.toMatch(/\\n|\n/);
    expect(line).toBe(
      "better-sqlite3 cannot be loaded by this Node: its build is missing (a packager or a failed rebuild may have deleted it). Run `npm rebuild better-sqlite3` in LabelDesk's folder to rebuild it for Node.",
    );
  });

  it('that is no library for this Node is one line (Node’s own load error)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labeldesk-native-'));
    dirs.push(dir);
    const file = join(dir, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, 'not a shared library');
    const err = thrown(() => process.dlopen({ exports: {} }, file));
    expect((err as { code?: string }).code).toBe('ERR_DLOPEN_FAILED');
    const line = describeError(err, undefined);
    expect(line).toMatch(
      /^keytar cannot be loaded by this Node: .*keytar\.node.*`npm rebuild keytar`/,
    );
    expect(line).not.toMatch(/\\n|\n/);
  });

  it('built for Electron’s ABI says so (Node’s message, several lines)', () => {
    const err = Object.assign(
      new Error(
        "The module '/p/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 140. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(describeError(err, undefined)).toBe(
      "better-sqlite3 cannot be loaded by this Node: it was built for another runtime (NODE_MODULE_VERSION 140, e.g. Electron's) and this Node needs 115. Run `npm rebuild better-sqlite3` in LabelDesk's folder to rebuild it for Node.",
    );
  });
});
