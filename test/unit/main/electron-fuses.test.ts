/**
 * The packaged binary's fuses, read from electron-builder.yml. The block is parsed here by hand
 * (flat `key: true|false` lines under `electronFuses:`) so the check needs no YAML dependency; any
 * line in the block it cannot read fails the test rather than being skipped.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const YAML = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');

function topLevelBlock(yaml: string, key: string): string[] | undefined {
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => l === `${key}:`);
  if (start === -1) return undefined;
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!line.startsWith(' ')) break;
    block.push(line.trim());
  }
  return block;
}

function readFuses(yaml: string): Record<string, boolean> {
  const block = topLevelBlock(yaml, 'electronFuses');
  if (!block) throw new Error('electron-builder.yml has no electronFuses block');
  const fuses: Record<string, boolean> = {};
  for (const line of block) {
    const match = /^([A-Za-z0-9]+): (true|false)$/.exec(line);
    if (!match) throw new Error(`unreadable fuse line: ${line}`);
    if (match[1]! in fuses) throw new Error(`fuse set twice: ${match[1]}`);
    fuses[match[1]!] = match[2] === 'true';
  }
  return fuses;
}

describe('electron-builder.yml', () => {
  it('flips the fuses of the security checklist', () => {
    expect(readFuses(YAML)).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs the app into an asar archive, which onlyLoadAppFromAsar needs', () => {
    expect(YAML.split('\n')).toContain('asar: true');
    expect(YAML.split('\n').filter((l) => /^electronFuses:/.test(l))).toHaveLength(1);
  });

  it('reads a flipped fuse as flipped (the reader is not blind)', () => {
    const changed = YAML.replace('  runAsNode: false', '  runAsNode: true');
    expect(readFuses(changed).runAsNode).toBe(true);
    expect(() => readFuses(YAML.replace('  runAsNode: false', '  runAsNode: off'))).toThrow();
  });
});
