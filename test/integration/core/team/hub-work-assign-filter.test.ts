/**
 * A lead assigns work by filter, not only by folder (issue 26 §2, "assign folders or filters"):
 * files of a kind, files the model found a class in, files reviewed or not yet, each checked by
 * the hub on its own tables; the member's claims then take exactly those. A filter that makes no
 * sense is a per-call error with a code and a sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignWork,
  claimWork,
  ensureWorkSchema,
  grantWork,
} from '../../../../electron/core/team/hub-work.js';
import { parseWorkFilter } from '../../../../electron/core/team/work-filter.js';
import { hubRoles, type HubRoles } from '../../../support/hub-roles.js';

let hub: HubRoles;
const S = 'labeldesk_demo';
const Q = `"${S}"`;
const file = (name: string, kind: 'image' | 'video') => ({
  contentHash: `hash-${name}`,
  relPath: `d/${name}`,
  size: 1,
  kind,
  width: 1,
  height: 1,
});
const answer = (name: string, labels: string[]) => ({
  contentHash: `hash-${name}`,
  solution: 'objects',
  service: 'embedded',
  answer: {
    analysedWidth: 1,
    analysedHeight: 1,
    model: null,
    detections: labels.map((label) => ({
      frameIndex: 0,
      timeMs: null,
      label,
      classId: null,
      score: 0.9,
      bbox: { x: 0, y: 0, w: 0.5, h: 0.5 },
    })),
  },
});

beforeAll(async () => {
  hub = await hubRoles('demo', ['alice', 'bob']);
  const lead = hub.client('lead');
  await lead.createProject('demo', '/data/demo');
  await lead.use((sql) => ensureWorkSchema(sql, S));
  for (const m of ['alice', 'bob']) {
    await lead.addMember(m, 'annotator');
    await lead.use((sql) => grantWork(sql, S, m, 'annotator'));
  }
  await lead.addFiles([
    file('cars.jpg', 'image'),
    file('dogs.jpg', 'image'),
    file('cars.mp4', 'video'),
    file('done.jpg', 'image'),
  ]);
  await lead.addAnswers([
    answer('cars.jpg', ['car', 'person']),
    answer('dogs.jpg', ['dog']),
    answer('cars.mp4', ['car']),
    answer('done.jpg', ['car']),
  ]);
  // done.jpg: reviewed already (by the lead).
  await hub.raw('lead')`UPDATE labeldesk_demo.work SET holder = 'lead', done = true,
    done_at = now() WHERE content_hash = 'hash-done.jpg'`;
}, 120_000);

afterAll(() => hub?.remove());

const assign = (member: string, terms: string[]) =>
  hub.client('lead').use((sql, s) => assignWork(sql, s, member, '.', parseWorkFilter(terms)));

describe('assigning work by filter', () => {
  it('assigns the files of a class and kind, and the unreviewed ones, to the member named', async () => {
    // Cars in images: cars.jpg (done.jpg has cars but is reviewed, and kind=video is a clip).
    expect(await assign('alice', ['class=car', 'kind=image', 'state=unreviewed'])).toBe(1);
    expect(await assign('bob', ['kind=video'])).toBe(1);
    // Bob's claims take his assignment first; Alice's never take his.
    const bob = await claimWork(hub.raw('bob'), Q, 1);
    expect(bob.map((w) => w.contentHash)).toEqual(['hash-cars.mp4']);
    const alice = await claimWork(hub.raw('alice'), Q, 1);
    expect(alice.map((w) => w.contentHash)).toEqual(['hash-cars.jpg']);
    // A class nobody's answers have assigns nothing; reviewed files can be named too.
    expect(await assign('alice', ['class=zebra'])).toBe(0);
    expect(await assign('alice', ['state=reviewed'])).toBe(0); // done.jpg is finished: no slot left
  });

  it('refuses a filter that makes no sense, with a code', () => {
    for (const bad of [
      ['kind=audio'],
      ['class='],
      ['colour=red'],
      ['state=maybe'],
      ['kind=image', 'kind=video'],
    ]) {
      expect(() => parseWorkFilter(bad), bad.join(' ')).toThrow(
        expect.objectContaining({ code: 'bad_filter' }),
      );
    }
  });
});
