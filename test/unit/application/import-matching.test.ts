/**
 * Labelled files are matched to the library's as their batches arrive, once the library is
 * indexed: by path then, by name at the end. Whatever the timing, the outcome is the one a match
 * of the whole list gives: the first entry of a library file wins (in the labels' order, however
 * it was found), the others are issues, and the files come in the library's order.
 */
import { describe, expect, it } from 'vitest';
import { ArrivingMatches, type FileIssues } from '../../../electron/application/import-matching.js';
import type { HeldFile } from '../../../electron/core/import/held-file.js';
import { LibraryIndex } from '../../../electron/core/import/match-files.js';
import type { MediaRecord } from '../../../electron/core/store/store-types.js';

const media = (id: number, path: string) => ({ id, path }) as MediaRecord;

const held = (source: string, paths: string[], name: string) =>
  ({ source, paths, name, stemOnly: false, size: null, boxCount: 0 }) as unknown as HeldFile;

const library = () =>
  new LibraryIndex([
    media(3, '/lib/c.jpg'),
    media(1, '/lib/a.jpg'),
    media(2, '/lib/sub/b.jpg'),
    media(4, '/lib/d.jpg'),
  ]);

/** In the labels' order: by name first, then the same file by path; a file no path or name finds. */
const files = [
  held('e0', ['/elsewhere/b.jpg'], 'b.jpg'),
  held('e1', ['/lib/c.jpg'], 'c.jpg'),
  held('e2', ['/lib/sub/b.jpg'], 'b.jpg'),
  held('e3', ['/nowhere/z.jpg'], 'z.jpg'),
  held('e4', ['/lib/a.jpg'], 'a.jpg'),
  held('e5', ['/x/c.jpg', '/lib/c.jpg'], 'c.jpg'),
];

async function matched(split: number, indexFirst: boolean) {
  const matches = new ArrivingMatches();
  const index = library();
  if (indexFirst) await matches.indexed(index, undefined);
  matches.arrived(files.slice(0, split));
  if (!indexFirst) await matches.indexed(index, undefined);
  matches.arrived(files.slice(split));
  const issues: FileIssues = [];
  const work = await matches.all(index, issues, undefined);
  return {
    work: work.map((m) => `${m.file.source}@${m.at}:${m.media.id}`),
    issues: issues.map((i) => `${i.at} ${i.issue.code}`).sort(),
  };
}

describe('matches as the labels arrive', () => {
  it.each([
    [0, true],
    [2, true],
    [3, false],
    [6, false],
  ])(
    'gives one outcome however the batches and the index interleave (%i before, index first: %s)',
    async (split, indexFirst) => {
      expect(await matched(split, indexFirst)).toEqual({
        work: ['e4@4:1', 'e0@0:2', 'e1@1:3'],
        issues: ['2 duplicate_entry', '3 unknown_file', '5 duplicate_entry'],
      });
    },
  );
});
