/**
 * Two members mark the same file without seeing each other's mark (README "Working as a team"):
 * the mark logged last in the hub wins on every desktop, whichever desktop made it and in
 * whatever order the desktops sync afterwards; an unmark is a mark like any other.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import type { LibraryStore } from '../../../electron/core/store/store-types.js';
import { projectWith, teamJson, useLeadAndBob, type Member } from '../../support/team-members.js';

const members = useLeadAndBob();

function onPhoto0<T>(m: Member, fn: (store: LibraryStore, id: number) => T): T {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    return fn(store, store.media.byPath(join(m.folder, 'photo0.jpg'))!.id);
  } finally {
    store.close();
  }
}

const markOf = (m: Member) =>
  onPhoto0(m, (s, id) => s.reviewed.of(id, 'objects')?.reviewedBy ?? null);

describe('review marks of one file by two members', () => {
  it('end as the mark logged last, on both desktops', async () => {
    const { lead, bob } = members;
    await projectWith(lead, bob);
    onPhoto0(lead, (s, id) => s.reviewed.markReviewed([id], 'objects', 'person'));
    onPhoto0(bob, (s, id) => s.reviewed.markReviewed([id], 'objects', 'import'));
    // The lead's goes to the hub first, bob's after it: bob's is the last logged.
    expect(await teamJson(lead, ['sync'])).toMatchObject({ marksPushed: 1 });
    expect(await teamJson(bob, ['sync'])).toMatchObject({ marksPushed: 1 });
    await teamJson(lead, ['sync']);
    expect(markOf(bob)).toBe('import');
    expect(markOf(lead)).toBe('import');

    // Now bob unmarks and the lead marks again, bob's first in the hub this time.
    onPhoto0(bob, (s, id) => s.reviewed.unmarkReviewed([id], 'objects'));
    onPhoto0(lead, (s, id) => s.reviewed.markReviewed([id], 'objects', 'person'));
    await teamJson(bob, ['sync']);
    await teamJson(lead, ['sync']);
    await teamJson(bob, ['sync']);
    expect(markOf(lead)).toBe('person');
    expect(markOf(bob)).toBe('person');
  });
});
