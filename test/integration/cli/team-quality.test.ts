/**
 * How good each member's labels are (issue 26 §3), through a real PostgreSQL hub and separate
 * `labeldesk` processes and homes: a lead and two annotators. photo0 is an overlap file both
 * annotators review blind (neither desktop receives the other's changes of it); photo1 is a
 * honeypot whose truth is the lead's version. Agreement, honeypot precision and recall match the
 * hand counts in the comments; the database refuses an annotator the lead's settings, the
 * honeypots and settling; the lead's settlement becomes every desktop's labels.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { openLibraryStore } from '../../../electron/core/review/open-library-store.js';
import { HubClient } from '../../../electron/core/team/hub-client.js';
import { wantedReviews } from '../../../electron/core/team/hub-quality.js';
import type { NormBox } from '../../../electron/shared/geometry/box-math.js';
import type { PgServer } from '../../support/pg-server.js';
import {
  projectWith,
  ref,
  review,
  shown,
  team,
  teamJson,
  useTeamFixture,
  type Member,
} from '../../support/team-members.js';

let server: PgServer;
let lead: Member;
let ann: Member;
let bob: Member;

useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'ann' }, { name: 'bob' }], (fx) => {
  server = fx.server;
  [lead, ann, bob] = fx.members as [Member, Member, Member];
});

const box = (x: number, y: number, w: number, h: number): NormBox => ({ x, y, w, h });

/** Deletes every model box of a file but the first, which gets `label`; returns how many it had. */
function relabelFirstDropRest(m: Member, file: string, label: string | null): number {
  return review(m, (r, id) => {
    const refs = r
      .item(id(file), 'objects')
      .boxes.filter((b) => b.model !== null)
      .map(ref);
    refs.forEach((b, i) => {
      if (i === 0 && label !== null)
        r.edit(id(file), 'objects', { kind: 'relabel', box: b, label });
      else r.edit(id(file), 'objects', { kind: 'delete', box: b });
    });
    return refs.length;
  });
}

function draw(m: Member, file: string, boxes: [string, NormBox][]): void {
  review(m, (r, id) => {
    for (const [label, bbox] of boxes) {
      r.edit(id(file), 'objects', { kind: 'add', frameIndex: 0, timeMs: null, label, bbox });
    }
  });
}

function markReviewed(m: Member, files: string[]): void {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    const ids = files.map((f) => store.media.byPath(join(m.folder, f))!.id);
    store.reviewed.markReviewed(ids, 'objects', 'person');
  } finally {
    store.close();
  }
}

function contentHash(m: Member, file: string): string {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    return store.media.byPath(join(m.folder, file))!.contentHash!;
  } finally {
    store.close();
  }
}

/** The statement as the member's own role, straight to the hub (as with psql). */
async function asRole(m: Member, statement: string): Promise<unknown> {
  const sql = postgres(m.hub(true), { max: 1, onnotice: () => undefined });
  try {
    return await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

const syncAll = async () => {
  for (const m of [ann, bob, lead, ann, bob]) await teamJson(m, ['sync']);
};

interface Figures {
  a: number;
  b: number;
  matched: number;
  f1: number | null;
  meanIou: number | null;
}
interface Report {
  overlapFiles: number;
  settledFiles: number;
  honeypotFiles: number;
  members: {
    member: string;
    filesReviewed: number;
    boxesChanged: number;
    framesSpent: number;
    activeSeconds: number;
    agreement: { f1: number | null; meanIou: number | null; files: number };
    honeypots: { tp: number; fp: number; fn: number; precision: number; recall: number };
  }[];
  pairs: {
    members: string[];
    files: number;
    overall: Figures;
    classes: (Figures & { label: string })[];
  }[];
  model: { files: number };
}

describe('overlap, honeypots, agreement and the report', () => {
  it('scores each member as a hand count does, blind, and settles as the lead says', async () => {
    await projectWith(lead, ann, bob);
    const [h0, h1] = [contentHash(lead, 'photo0.jpg'), contentHash(lead, 'photo1.jpg')];

    // The lead's settings, the honeypots and settling are refused to an annotator by the database.
    const refused = await team(ann, ['settings', 'overlap', '5%']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/hub_refused/);
    for (const statement of [
      'UPDATE labeldesk_demo.quality_settings SET overlap_share = 0.5',
      "INSERT INTO labeldesk_demo.quality_settlements (content_hash, kept_member) VALUES ('x', 'ann')",
      'SELECT * FROM labeldesk_demo.quality_honeypots',
    ]) {
      await expect(asRole(ann, statement)).rejects.toMatchObject({ code: '42501' });
    }

    // Overlap files are chosen by content: at 50 %, those whose md5 bucket is under one half.
    await teamJson(lead, ['settings', 'overlap', '50%']);
    const bucket = (h: string) =>
      parseInt(createHash('md5').update(h).digest('hex').slice(0, 8), 16) / 2 ** 32;
    const half = [h0, h1].filter((h) => bucket(h) < 0.5).length;
    expect((await teamJson<Report>(lead, ['report'])).overlapFiles).toBe(half);
    expect(await teamJson(lead, ['settings', 'overlap', '100%'])).toEqual({ overlapShare: 1 });

    // The lead's truth for photo1: car (.1,.1,.3,.3), car (.6,.6,.3,.3), person (.4,0,.2,.5).
    relabelFirstDropRest(lead, 'photo1.jpg', null);
    draw(lead, 'photo1.jpg', [
      ['car', box(0.1, 0.1, 0.3, 0.3)],
      ['car', box(0.6, 0.6, 0.3, 0.3)],
      ['person', box(0.4, 0, 0.2, 0.5)],
    ]);
    const pots = await teamJson<{ added: { boxes: number }[] }>(lead, [
      'honeypots',
      'add',
      join(lead.folder, 'photo1.jpg'),
    ]);
    expect(pots.added).toEqual([{ contentHash: h1, boxes: 3 }]);

    // photo0 (overlap). ann: model box 0 → zebra, cat (0,0,.4,.4), cat (.5,.5,.2,.2), dog (.1,.6,.2,.3).
    // bob: model box 0 → giraffe, cat (0,0,.4,.5), cat (.8,0,.1,.1), dog (.1,.6,.2,.3).
    const n0 = relabelFirstDropRest(ann, 'photo0.jpg', 'zebra');
    draw(ann, 'photo0.jpg', [
      ['cat', box(0, 0, 0.4, 0.4)],
      ['cat', box(0.5, 0.5, 0.2, 0.2)],
      ['dog', box(0.1, 0.6, 0.2, 0.3)],
    ]);
    relabelFirstDropRest(bob, 'photo0.jpg', 'giraffe');
    draw(bob, 'photo0.jpg', [
      ['cat', box(0, 0, 0.4, 0.5)],
      ['cat', box(0.8, 0, 0.1, 0.1)],
      ['dog', box(0.1, 0.6, 0.2, 0.3)],
    ]);
    // photo1 (honeypot). ann: car (.1,.1,.3,.3), person (.4,0,.2,.5), bus (0,.8,.1,.1).
    // bob: car (.12,.1,.3,.3), car (.6,.6,.3,.3).
    const n1 = relabelFirstDropRest(ann, 'photo1.jpg', null);
    draw(ann, 'photo1.jpg', [
      ['car', box(0.1, 0.1, 0.3, 0.3)],
      ['person', box(0.4, 0, 0.2, 0.5)],
      ['bus', box(0, 0.8, 0.1, 0.1)],
    ]);
    relabelFirstDropRest(bob, 'photo1.jpg', null);
    draw(bob, 'photo1.jpg', [
      ['car', box(0.12, 0.1, 0.3, 0.3)],
      ['car', box(0.6, 0.6, 0.3, 0.3)],
    ]);
    markReviewed(ann, ['photo0.jpg', 'photo1.jpg']);
    markReviewed(bob, ['photo0.jpg', 'photo1.jpg']);
    await syncAll();

    // Blind: neither annotator's desktop (nor role) receives the other's or the lead's changes.
    const labels = (m: Member, file: string) => shown(m, file).map((s) => s.split(' ')[0]);
    expect(labels(ann, 'photo0.jpg').sort()).toEqual(['cat', 'cat', 'dog', 'zebra']);
    expect(labels(bob, 'photo0.jpg').sort()).toEqual(['cat', 'cat', 'dog', 'giraffe']);
    expect(labels(ann, 'photo1.jpg').sort()).toEqual(['bus', 'car', 'person']);
    expect(labels(bob, 'photo1.jpg').sort()).toEqual(['car', 'car']);
    // Nor does the lead's desktop: its photo0 is the model's, its photo1 its own truth.
    expect(labels(lead, 'photo1.jpg').sort()).toEqual(['car', 'car', 'person']);
    expect(labels(lead, 'photo0.jpg')).not.toContain('zebra');
    expect(labels(lead, 'photo0.jpg')).not.toContain('giraffe');
    const others = await asRole(
      ann,
      `SELECT count(*)::int AS n FROM labeldesk_demo.changes WHERE member <> 'ann'`,
    );
    expect(others).toEqual([{ n: 0 }]);

    const report = await teamJson<Report>(lead, ['report']);
    expect(report).toMatchObject({ overlapFiles: 1, settledFiles: 0, honeypotFiles: 1 });
    // ann & bob on photo0, per class (ann's boxes / bob's, matched at IoU ≥ 0.5):
    //   cat: 2/2, 1 matched (IoU .16/.20 = .8) → F1 2·1/4 = .5, mean IoU .8
    //   dog: 1/1, 1 matched (IoU 1) → F1 1, mean IoU 1
    //   giraffe: 0/1 → F1 0; zebra: 1/0 → F1 0
    //   overall: 4/4, 2 matched → F1 .5, mean IoU (.8 + 1) / 2 = .9
    expect(report.pairs).toHaveLength(1);
    const pair = report.pairs[0]!;
    expect(pair.members).toEqual(['ann', 'bob']);
    expect(pair.files).toBe(1);
    expect(pair.overall).toMatchObject({ a: 4, b: 4, matched: 2, f1: 0.5 });
    expect(pair.overall.meanIou).toBeCloseTo(0.9, 9);
    const byClass = Object.fromEntries(pair.classes.map((c) => [c.label, c]));
    expect(Object.keys(byClass).sort()).toEqual(['cat', 'dog', 'giraffe', 'zebra']);
    expect(byClass['cat']).toMatchObject({ a: 2, b: 2, matched: 1, f1: 0.5 });
    expect(byClass['cat']!.meanIou).toBeCloseTo(0.8, 9);
    expect(byClass['dog']).toMatchObject({ a: 1, b: 1, matched: 1, f1: 1, meanIou: 1 });
    expect(byClass['giraffe']).toMatchObject({ a: 0, b: 1, matched: 0, f1: 0, meanIou: null });
    expect(byClass['zebra']).toMatchObject({ a: 1, b: 0, matched: 0, f1: 0, meanIou: null });

    // Honeypot photo1 against the lead's truth (3 boxes):
    //   ann: car exact, person exact → tp 2; bus → fp 1; the second car missed → fn 1: P 2/3, R 2/3
    //   bob: car (.12,…) IoU .084/.096 = .875 and car exact → tp 2, fp 0; person missed → fn 1: P 1, R 2/3
    const member = (name: string) => report.members.find((m) => m.member === name)!;
    expect(member('ann').honeypots).toMatchObject({ tp: 2, fp: 1, fn: 1, files: 1 });
    expect(member('ann').honeypots.precision).toBeCloseTo(2 / 3, 9);
    expect(member('ann').honeypots.recall).toBeCloseTo(2 / 3, 9);
    expect(member('bob').honeypots).toMatchObject({ tp: 2, fp: 0, fn: 1, precision: 1 });
    expect(member('bob').honeypots.recall).toBeCloseTo(2 / 3, 9);
    // Boxes changed: every model box of both photos (relabelled or deleted) and the drawn ones.
    expect(member('ann')).toMatchObject({ filesReviewed: 2, boxesChanged: n0 + 3 + n1 + 3 });
    expect(member('bob')).toMatchObject({ filesReviewed: 2, boxesChanged: n0 + 3 + n1 + 2 });
    expect(member('ann').agreement).toMatchObject({ f1: 0.5, files: 1 });
    expect(member('lead').agreement).toMatchObject({ f1: null, files: 0 });
    // Each photo's answer was paid once, by whoever offered it first.
    expect(report.members.reduce((n, m) => n + m.framesSpent, 0)).toBe(2);
    // The model is measured on the reviewed files with project labels: photo1 (photo0 is open).
    expect(report.model.files).toBe(1);

    const open = await teamJson<{
      disagreements: { relPath: string; unmatched: { member: string; label: string }[] }[];
    }>(lead, ['disagreements']);
    expect(open.disagreements).toHaveLength(1);
    expect(open.disagreements[0]!.relPath).toBe('photo0.jpg');
    expect(open.disagreements[0]!.unmatched.map((u) => `${u.member} ${u.label}`).sort()).toEqual([
      'ann cat',
      'ann zebra',
      'bob cat',
      'bob giraffe',
    ]);

    // An annotator cannot settle (nor read the report's honeypots); the lead keeps bob's version.
    const notYours = await team(ann, ['settle', join(ann.folder, 'photo0.jpg'), '--keep', 'ann']);
    expect(notYours.code).toBe(1);
    expect(notYours.stderr).toMatch(/hub_refused/);
    expect((await team(ann, ['report'])).stderr).toMatch(/hub_refused/);
    const settled = await teamJson<{ settled: { relPath: string; kept: string }[] }>(lead, [
      'settle',
      join(lead.folder, 'photo0.jpg'),
      '--keep',
      'bob',
    ]);
    expect(settled.settled).toMatchObject([{ relPath: 'photo0.jpg', kept: 'bob' }]);
    await syncAll();
    const bobs = shown(bob, 'photo0.jpg');
    expect(labels(bob, 'photo0.jpg').sort()).toEqual(['cat', 'cat', 'dog', 'giraffe']);
    expect(shown(ann, 'photo0.jpg')).toEqual(bobs);
    expect(shown(lead, 'photo0.jpg')).toEqual(bobs);
    for (const m of [lead, ann, bob]) {
      const conflicts = await teamJson<{ conflicts: { contentHash: string }[] }>(m, ['conflicts']);
      expect(conflicts.conflicts.filter((c) => c.contentHash === h0)).toEqual([]);
    }
    const after = await teamJson<Report>(lead, ['report']);
    expect(after).toMatchObject({ settledFiles: 1 });
    expect(after.model.files).toBe(2);
    expect(
      (await teamJson<{ disagreements: unknown[] }>(lead, ['disagreements'])).disagreements,
    ).toEqual([]);
  }, 240_000);

  it('hands honeypots to every annotator and open overlap files to two, and upgrades an older hub', async () => {
    const [h0, h1] = [contentHash(lead, 'photo0.jpg'), contentHash(lead, 'photo1.jpg')];
    const hub = new HubClient({
      address: lead.hub(false),
      password: lead.password,
      project: 'demo',
    });
    try {
      // photo1: a honeypot, for both annotators; photo0: settled, so one review is enough again.
      expect(await wantedReviews(hub)).toEqual(new Map([[h1, 2]]));
      expect(h0).not.toBe(h1);
      // The work split follows: the honeypot wants both annotators, the settled file one review
      // again (its two finished slots stay: nobody's work is dropped).
      const wanted = (h: string) =>
        Number(
          server.sql(
            `SELECT wanted_reviews FROM labeldesk_demo.work_files WHERE content_hash = '${h}'`,
          ),
        );
      expect([wanted(h1), wanted(h0)]).toEqual([2, 1]);
      expect(
        Number(server.sql(`SELECT count(*) FROM labeldesk_demo.work WHERE content_hash = '${h1}'`)),
      ).toBe(2);
    } finally {
      await hub.close();
    }

    // A hub made before the quality tables: an annotator's sync leaves it (and works); the lead's adds them.
    server.sql(`DROP POLICY quality_blind ON labeldesk_demo.changes;
      DROP TABLE labeldesk_demo.quality_settings, labeldesk_demo.quality_honeypots,
        labeldesk_demo.quality_settlements;`);
    await teamJson(ann, ['sync']);
    expect((await team(ann, ['settings'])).stderr).toMatch(/hub_format/);
    await teamJson(lead, ['sync']);
    expect(await teamJson(ann, ['settings'])).toEqual({ overlapShare: 0 });
    expect((await team(ann, ['settings', 'overlap', '10%'])).stderr).toMatch(/hub_refused/);
    expect(await teamJson(lead, ['settings', 'overlap', '10%'])).toEqual({ overlapShare: 0.1 });
    expect(
      Number(server.sql(`SELECT count(*) FROM pg_policies WHERE policyname = 'quality_blind'`)),
    ).toBe(1);
  }, 120_000);
});
