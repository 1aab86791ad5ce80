/**
 * Issue 25: a library that imported ground truth before migration 17 (its team changes did not
 * carry what the import set) publishes it once on its first sync after the upgrade. The lead's
 * library is put back to migration 16 (migration 17 only replaced the outbox triggers: its own
 * are restored and its record removed), the import's write is made there, and that change reaches
 * bob without the crowd flag, as it did then. The lead's next `team sync` opens the library at the
 * current version: the box goes out again with it, once, and bob's library shows it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/node-lib/sqlite.js';
import { teamCorrectionSaved } from '../../../electron/core/store/migrations-team.js';
import { teamRepo } from '../../../electron/core/store/team-repo.js';
import { HubClient } from '../../../electron/core/team/hub-client.js';
import {
  modelBox,
  projectWith,
  relabelSecondBox,
  review,
  teamJson,
  useLeadAndBob,
  type Member,
} from '../../support/team-members.js';

const members = useLeadAndBob();

/** Migration 16's outbox triggers (migration 10's state). */
function triggersOf16(m: Member): void {
  const db = openDatabase(join(m.home, 'library.sqlite'));
  try {
    db.exec(`
      DROP TRIGGER team_correction_inserted;
      DROP TRIGGER team_correction_updated;
      ${teamCorrectionSaved('INSERT', 'team_correction_inserted')}
      ${teamCorrectionSaved('UPDATE', 'team_correction_updated')}`);
  } finally {
    db.close();
  }
}

/**
 * The later migrations' indexes, rejected flag, keyframe column, content numbers and kept trigger
 * SQL undone (the library is in a project: its triggers are installed), and no record of
 * migration 17 on.
 */
function schemaOf16(m: Member): void {
  const db = openDatabase(join(m.home, 'library.sqlite'));
  try {
    db.exec(`
      DROP INDEX detections_shown;
      DROP INDEX detections_rejected;
      ALTER TABLE detections DROP COLUMN rejected;
      DROP INDEX corrections_by_content;
      DROP TRIGGER media_content_numbered;
      DROP TRIGGER media_content_renumbered;
      ALTER TABLE corrections DROP COLUMN content_id;
      DROP TABLE contents;
      INSERT OR IGNORE INTO team_applying (id) VALUES (1);
      UPDATE corrections SET frame_index = -frame_index - 1 WHERE keyframe = 1;
      DELETE FROM team_applying;
      ALTER TABLE corrections DROP COLUMN keyframe;
      CREATE INDEX corrections_by_content ON corrections(content_hash, solution, frame_index);
      DROP TABLE team_triggers;
      DELETE FROM schema_migrations WHERE version >= 17;`);
  } finally {
    db.close();
  }
}

/** What a COCO import at migration 16 wrote on a box with a correction, and its push from there. */
async function importAt16(m: Member, correctionId: number): Promise<void> {
  const db = openDatabase(join(m.home, 'library.sqlite'));
  const hub = new HubClient({ address: m.hub(false), password: m.password, project: 'demo' });
  try {
    db.prepare(
      `UPDATE corrections SET person_made = 1, crowd = 1, coco = '{"id":7,"area":1}',
         review = 'accepted', updated_at = updated_at + 1 WHERE id = ?`,
    ).run(correctionId);
    const team = teamRepo(db);
    const outbox = team.outbox(100);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.state).not.toHaveProperty('crowd');
    await hub.push(outbox);
    team.markPushed(outbox.map((c) => c.id));
  } finally {
    await hub.close();
    db.close();
  }
}

const secondBox = (m: Member) =>
  review(m, (r, id) => {
    const b = r
      .item(id('photo0.jpg'), 'objects')
      .boxes.find((x) => x.correctionId === modelBox(m, 'photo0.jpg', 1).correctionId)!;
    return `${b.label} ${b.score} crowd ${b.crowd === true}`;
  });

describe('boxes imported before migration 17', () => {
  it('reach the team with what the import set on the first sync after the upgrade', async () => {
    const { lead, bob } = members;
    await projectWith(lead, bob);
    relabelSecondBox(lead, 'gt');
    await teamJson(lead, ['sync']);
    const correctionId = modelBox(lead, 'photo0.jpg', 1).correctionId!;
    expect(correctionId).not.toBeNull();

    // Back to migration 16 (the import's push reads the outbox with today's store, then the
    // later columns go).
    triggersOf16(lead);
    await importAt16(lead, correctionId);
    schemaOf16(lead);
    await teamJson(bob, ['sync']);
    expect(secondBox(bob)).toMatch(/^gt 0\.\d+ crowd false$/);

    // The upgrade: the lead's next sync publishes the import, once.
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 1 });
    expect(await teamJson(lead, ['sync'])).toMatchObject({ pushed: 0 });
    await teamJson(bob, ['sync']);
    expect(secondBox(bob)).toBe('gt null crowd true');
    expect(secondBox(bob)).toBe(secondBox(lead));
    expect((await teamJson(bob, ['status'])).conflicts).toBe(0);
  }, 300_000);
});
