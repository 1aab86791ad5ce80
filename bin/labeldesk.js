#!/usr/bin/env node
// The CLI is compiled by `npm run build:node` (run by `npm ci` through `prepare`): tsc writes
// build/electron/, then scripts/bundle-cli.js joins the CLI's modules into build/cli/, which starts
// faster. Without a bundle (a coverage build), or with one older than tsc's last output (tsc run on
// its own), the CLI runs tsc's files.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const path = (relative) => fileURLToPath(new URL(relative, import.meta.url));
const bundled = path('../build/cli/main.js');
const compiled = path('../build/electron/cli/main.js');
const tscInfo = path('../build/.tsbuildinfo');
const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;
const useBundle = existsSync(bundled) && (mtime(tscInfo) ?? 0) <= (mtime(bundled) ?? 0);
const entry = useBundle ? bundled : compiled;
if (!existsSync(entry)) {
  process.stderr.write('labeldesk: not built yet; run `npm run build:node` (npm ci does it).\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
