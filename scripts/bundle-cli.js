// The command line as a few ES modules instead of ~150: `npm run build:node` runs this after tsc.
// Node 20 has no module compile cache, and finding, reading and linking each of our modules one by
// one cost `labeldesk label` ~50 ms of CPU before its first upload (measured: first upload at
// ~155 ms from spawn instead of ~210 ms, `label --help` 0.10 s instead of 0.14 s).
//
// Input is tsc's output (build/electron/cli/main.js); output is build/cli/ (main.js plus one
// chunk per lazily loaded command and what they share), which bin/labeldesk.js prefers. Packages
// and node: built-ins stay external. Every `import.meta.url` is rewritten to the URL of the
// module's own compiled file, so worker scripts, the package root and `createRequire` resolve
// from build/electron/ exactly as they do unbundled (workers run tsc's files, which stay built).
//
// A coverage build (LABELDESK_COVERAGE=1) skips the bundle: the CLI then runs tsc's files, whose
// source maps lead straight back to the TypeScript.
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { rolldown } from 'rolldown';

const root = join(import.meta.dirname, '..');
const input = join(root, 'build', 'electron', 'cli', 'main.js');
const outDir = join(root, 'build', 'cli');

rmSync(outDir, { recursive: true, force: true });
if (process.env.LABELDESK_COVERAGE === '1') process.exit(0);

/** Each module's `import.meta.url`, as seen from a chunk in build/cli/. */
const ownUrl = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta.url')) return null;
    const path = relative(outDir, id).split(sep).join('/');
    const url = `new URL(${JSON.stringify(path)}, import.meta.url).href`;
    return { code: code.replaceAll('import.meta.url', url), map: null };
  },
};

const bundle = await rolldown({
  input,
  platform: 'node',
  // Bare specifiers (packages, node: built-ins) load as they would unbundled.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  plugins: [ownUrl],
});
const { output } = await bundle.write({
  dir: outDir,
  format: 'esm',
  chunkFileNames: '[name]-[hash].js',
  // What main.js imports statically (every command loads it) in one file, not ~30: each file is
  // resolved, read and linked on its own, and `label` spent ~15 ms more CPU loading 38 files
  // than 8 holding the same code (medians of 20, 62 vs 44 ms). The commands stay lazy chunks.
  codeSplitting: { groups: [{ name: 'cli-start', tags: ['$initial'] }] },
});
await bundle.close();
// Which compiled modules each file holds, so a test can tell what a command loads.
const modules = Object.fromEntries(
  output
    .filter((o) => o.type === 'chunk')
    .map((c) => [c.fileName, c.moduleIds.map((id) => relative(root, id).split(sep).join('/'))]),
);
writeFileSync(join(outDir, 'modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
