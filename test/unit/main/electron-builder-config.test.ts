/**
 * Issue 27 §3: the packaging configuration as electron-builder itself resolves and validates it
 * (its own schema), with what the deb target demands (maintainer, homepage, author's email), an
 * icon and a desktop entry, and only the target platform's onnxruntime binaries in each package.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface BuilderConfig {
  linux?: { maintainer?: string; icon?: string; desktop?: unknown; files?: string[] };
  mac?: { files?: string[] };
  win?: { files?: string[] };
  asarUnpack?: string[];
  files?: (string | { filter?: string[] })[];
  npmRebuild?: boolean;
  directories?: { buildResources?: string };
}
// app-builder-lib is electron-builder's own library: getConfig reads electron-builder.yml as a
// build does, validateConfiguration checks it against electron-builder's schema.
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(dir: string, path: string | null, options: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, debug: { add(): void }): Promise<void>;
};
const pkg = require('../../../package.json') as {
  homepage?: string;
  author?: { name?: string; email?: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own validation', async () => {
    const config = await getConfig(ROOT, null, null);
    await expect(validateConfiguration(config, { add: () => undefined })).resolves.toBeUndefined();
  });

  it('has what the deb target checks, an icon and a desktop entry; npm run dist runs it', async () => {
    const config = await getConfig(ROOT, null, null);
    expect(config.linux?.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author?.email).toMatch(/@/);
    expect(existsSync(`${ROOT}${config.directories?.buildResources}/${config.linux?.icon}`)).toBe(
      true,
    );
    expect(config.linux?.desktop).toBeTruthy();
    expect(pkg.devDependencies['electron-builder']).toBeTruthy();
    expect(pkg.scripts['dist']).toMatch(/electron-builder --linux AppImage deb/);
  });

  it('names the package author as maintainer and no domain the project does not hold', async () => {
    const config = await getConfig(ROOT, null, null);
    expect(config.linux?.maintainer).toBe(`${pkg.author?.name} <${pkg.author?.email}>`);
    // No public homepage or address exists yet: RFC 2606's reserved domain, never an invented
    // real-looking one (labeldesk.dev was someone else's to register).
    const domains = [new URL(pkg.homepage ?? '').hostname, pkg.author?.email?.split('@')[1]];
    for (const domain of domains) expect(domain).toMatch(/\.example$/);
  });

  it('packs only the target platform’s onnxruntime binaries, outside the asar archive', async () => {
    const config = await getConfig(ROOT, null, null);
    // In the shared list with electron-builder's macros: a platform's own `files` made of
    // exclusions alone makes electron-builder add `**/*` (the whole project folder was packed).
    const patterns = (config.files ?? []).flatMap((f) =>
      typeof f === 'string' ? [f] : (f.filter ?? []),
    );
    expect(patterns).toContain('!node_modules/onnxruntime-node/bin/napi-v*/!(${platform})/**');
    for (const platform of ['linux', 'mac', 'win'] as const) {
      expect(config[platform]?.files).toBeUndefined();
    }
    expect(config.asarUnpack).toContain('node_modules/onnxruntime-node/bin/**');
    // Packaging never rebuilds node_modules (Node's builds, the CLI's): the Electron build of
    // better-sqlite3 is made beside it and unpacked with the app.
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toContain('build/electron-native/**');
    expect(pkg.scripts['dist']).toMatch(/node scripts\/electron-sqlite\.js && electron-builder/);
  });
});
