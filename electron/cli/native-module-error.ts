/**
 * A native module that Node cannot load (its build deleted, or built for Electron's ABI by a
 * packager) is told in one line with the way out. Node's and the `bindings` package's messages
 * span several lines (paths tried, ABI numbers), which the terminal guard would print as
 * literal `\n`s.
 */
const MODULE = /node_modules[\\/]((?:@[^\\/\s]+[\\/])?[^\\/\s]+)/;
const ABI =
  /NODE_MODULE_VERSION (\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/;
const NO_BUILD = /^Could not locate the bindings file/;

/** One line for a native module's load failure, or undefined when `err` is something else. */
export function nativeModuleProblem(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  const missing = NO_BUILD.test(err.message);
  if (code !== 'ERR_DLOPEN_FAILED' && !missing) return undefined;
  const name = MODULE.exec(err.message)?.[1]?.replace(/\\/g, '/') ?? 'a native module';
  const abi = ABI.exec(err.message);
  const why = missing
    ? 'its build is missing (a packager or a failed rebuild may have deleted it)'
    : abi
      ? `it was built for another runtime (NODE_MODULE_VERSION ${abi[1]}, e.g. Electron's) and this Node needs ${abi[2]}`
      : err.message.split('\n')[0]?.trim();
  const fix = name === 'a native module' ? 'npm rebuild' : `npm rebuild ${name}`;
  return `${name} cannot be loaded by this Node: ${why}. Run \`${fix}\` in LabelDesk's folder to rebuild it for Node.`;
}
