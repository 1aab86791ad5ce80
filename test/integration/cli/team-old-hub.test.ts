/**
 * A project made before the claims and marks tables existed (an older LabelDesk's hub): the
 * lead's next sync adds them, with every member's rights, and review marks and claims then work
 * for a member who joined before; a project that has them is left as it is.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { projectSchema, quoteIdent } from '../../../electron/core/team/hub-schema.js';
import { projectWith, teamJson, useTeamFixture, type Member } from '../../support/team-members.js';
import type { PgServer } from '../../support/pg-server.js';

let server: PgServer;
let lead: Member;
let bob: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }], (fx) => {
  server = fx.server;
  [lead, bob] = fx.members as [Member, Member];
});

const s = quoteIdent(projectSchema('demo'));

/** Marks a file of the member's library reviewed by a person. */
function markReviewed(m: Member, file: string): void {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    store.reviewed.markReviewed(
      [store.media.byPath(join(m.folder, file))!.id],
      'objects',
      'person',
    );
  } finally {
    store.close();
  }
}

const can = (table: string, right: string) =>
  server.sql(`SELECT has_table_privilege('bob', '${s}.${table}', '${right}')`).trim();

describe('a hub made before claims and marks', () => {
  it("gets them at the lead's next sync, and a member's marks then go through", async () => {
    await projectWith(lead, bob);
    // What a project of an older LabelDesk had: neither table, nor the marks' functions.
    server.sql(
      `DROP TABLE ${s}.claims, ${s}.marks; DROP FUNCTION ${s}.marks_in_order(), ${s}.marks_notify()`,
    );
    expect(server.sql(`SELECT to_regclass('${s}.marks') IS NULL`).trim()).toBe('t');

    await teamJson(lead, ['sync']);
    expect(can('marks', 'INSERT')).toBe('t');
    expect(can('claims', 'UPDATE')).toBe('t');

    markReviewed(bob, 'photo0.jpg');
    expect(await teamJson(bob, ['sync'])).toMatchObject({ marksPushed: 1 });
    expect(await teamJson(lead, ['sync'])).toMatchObject({ marksPulled: 1 });
    // Already up to date: the next sync changes nothing of the schema.
    const tables = server.sql(
      `SELECT count(*) FROM pg_tables WHERE schemaname = '${projectSchema('demo')}'`,
    );
    await teamJson(lead, ['sync']);
    expect(
      server.sql(`SELECT count(*) FROM pg_tables WHERE schemaname = '${projectSchema('demo')}'`),
    ).toBe(tables);
  });
});
