/**
 * What `team report` reads from a real PostgreSQL hub without holding the project in memory:
 * files reviewed per member counted in SQL (a later "not reviewed" mark takes a file back), who
 * reviewed a given set of files, and the reviewed set walked in pages, each file once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reviewedAmong,
  reviewedCounts,
  reviewedPage,
} from '../../../../electron/core/team/hub-report-reads.js';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;

/** Marks files f{from}..f{to} reviewed (or not), as `member` pushes them. */
const mark = (member: string, from: number, to: number, reviewed: boolean) =>
  hub.raw(
    member,
  )`INSERT INTO labeldesk_demo.marks (id, content_hash, solution, reviewed, reviewed_by)
    SELECT gen_random_uuid(), 'f' || lpad(g::text, 5, '0'), 'objects', ${reviewed}, 'person'
    FROM generate_series(${from}::int, ${to}::int) g`;

beforeAll(async () => {
  hub = await hubRoles('demo', ['ann', 'bob']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  for (const m of ['ann', 'bob']) await lead.addMember(m, 'annotator');
  await mark('ann', 1, 2500, true);
  await mark('bob', 1, 10, true);
  await mark('bob', 1, 5, false);
}, 180_000);

afterAll(() => hub?.remove());

describe("the report's paged reads", () => {
  it('counts, finds and pages the reviewed files in the hub', async () => {
    const lead = hub.client('lead');
    expect(await reviewedCounts(lead)).toEqual(
      new Map([
        ['ann', 2500],
        ['bob', 5],
      ]),
    );
    expect(await reviewedAmong(lead, ['f00001', 'f00007', 'f99999'])).toEqual(
      new Map([
        ['ann', new Set(['f00001', 'f00007'])],
        ['bob', new Set(['f00007'])],
      ]),
    );
    const pages: string[][] = [];
    for (let after: string | null = null; ;) {
      const page = await reviewedPage(lead, after, 1000);
      if (page.length === 0) break;
      pages.push(page);
      after = page[page.length - 1] ?? null;
    }
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 500]);
    const all = pages.flat();
    expect(new Set(all).size).toBe(2500);
    expect(all).toEqual([...all].sort());
  });
});
