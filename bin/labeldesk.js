#!/usr/bin/env node
// The CLI is compiled by `npm run build:node` (run by `npm ci` through `prepare`): tsc writes
// build/electron/, then scripts/bundle-cli.js joins the CLI's modules into build/cli/, which starts
// faster. A coverage build makes no bundle: the CLI then runs tsc's files.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundled = new URL('../build/cli/main.js', import.meta.url);
const compiled = new URL('../build/electron/cli/main.js', import.meta.url);
const entry = existsSync(fileURLToPath(bundled)) ? bundled : compiled;
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('labeldesk: not built yet; run `npm run build:node` (npm ci does it).\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
