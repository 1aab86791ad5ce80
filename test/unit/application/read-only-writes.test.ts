import { describe, expect, it } from 'vitest';
import { refuseWrites } from '../../../electron/application/read-only-home.js';
import {
  CALL_NAMES,
  LabelDeskError,
  type Handlers,
} from '../../../electron/shared/contract/index.js';

/** Every call answers its own name, so a pass-through is told apart from a refusal. */
const echo = Object.fromEntries(CALL_NAMES.map((n) => [n, () => n])) as unknown as Handlers;

describe('a read-only library', () => {
  const guarded = refuseWrites(echo, '/home/ro', 'it is on a read-only file system');
  const call = (name: keyof Handlers) =>
    (guarded[name] as (args: unknown) => unknown)({}) as Promise<unknown> | unknown;

  it.each([
    'review.editTrack',
    'review.mergeTracks',
    'review.splitTrack',
    'review.markReviewed',
    'quality.setTarget',
    'folders.rescan',
  ] as const)('refuses %s with one sentence', async (name) => {
    const refused = await Promise.resolve(call(name)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LabelDeskError);
    expect((refused as LabelDeskError).code).toBe('read_only_library');
    expect((refused as Error).message).toMatch(/^The library in \/home\/ro is read-only/);
  });

  it.each([
    'library.page',
    'review.boxes',
    'export.start',
    'quality.evaluate',
    'quality.target',
  ] as const)('lets %s through', async (name) => {
    expect(await call(name)).toBe(name);
  });
});
