/**
 * The team gate of a run, over a real library and a scripted hub: the team's answers are stored
 * and not sent, claimed files are sent, a file another member holds is waited for and taken when
 * its answer appears, sent once its claim is this run's, reported (never sent) past the wait,
 * and everything is sent when the hub cannot be asked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlannedItem } from '../../../../electron/core/runner/task-types.js';
import type { ClaimReply, HubAnswer } from '../../../../electron/core/team/hub-client.js';
import { TeamRunGate } from '../../../../electron/core/team/run-gate.js';
import { TeamError } from '../../../../electron/core/team/team-errors.js';
import { storeFixture, type StoreFixture } from '../store/store-fixture.js';

let fx: StoreFixture;
beforeEach(async () => (fx = await storeFixture()));
afterEach(() => fx.done());

const item = (hash: string): PlannedItem =>
  ({ media: { id: 1, path: `/f/${hash}.jpg`, contentHash: hash }, cost: 4 }) as PlannedItem;

const ANSWER: HubAnswer['answer'] = {
  analysedWidth: 10,
  analysedHeight: 10,
  model: 'm',
  detections: [],
};

/** A hub whose replies per content are scripted turn by turn (the last one repeats). */
function scriptedHub(script: Record<string, ClaimReply['state'][]>) {
  const asked: string[][] = [];
  const turn: Record<string, number> = {};
  return {
    asked,
    hub: {
      takeOrClaim: (hashes: readonly string[]) => {
        asked.push([...hashes]);
        return Promise.resolve(
          hashes.map((h): ClaimReply => {
            const states = script[h] ?? ['claimed'];
            const state = states[Math.min(turn[h] ?? 0, states.length - 1)]!;
            turn[h] = (turn[h] ?? 0) + 1;
            return {
              contentHash: h,
              state,
              answer: state === 'answer' ? ANSWER : null,
              who: state === 'held' ? 'ana' : 'me',
              until: null,
            };
          }),
        );
      },
      renewClaims: () => Promise.resolve(0),
      releaseClaims: () => Promise.resolve(),
      addAnswers: () => Promise.resolve(),
    },
  };
}

const gateOver = (hub: ReturnType<typeof scriptedHub>['hub'], maxWaitMs = 60_000) => {
  const clock = { t: 0 };
  const waits: string[] = [];
  const gate = new TeamRunGate({
    store: fx.store,
    hub,
    solution: 'objects',
    service: 'http://svc',
    run: '00000000-0000-4000-8000-000000000001',
    ttlMs: 60_000,
    pollMs: 500,
    maxWaitMs,
    now: () => clock.t,
    sleep: (ms) => {
      clock.t += ms;
      return Promise.resolve();
    },
    onWait: (i, holder) => waits.push(`${i.media.contentHash} ${holder}`),
  });
  return { gate, waits };
};

describe("a run's team gate", () => {
  it('takes answers, sends what it claimed, and waits for what another member holds', async () => {
    const { hub, asked } = scriptedHub({
      a: ['answer'],
      b: ['claimed'],
      c: ['held', 'held', 'answer'],
      d: ['held', 'claimed'],
    });
    const { gate, waits } = gateOver(hub);
    const now = await gate.admit(['a', 'b', 'c', 'd'].map(item));
    expect(now.map((i) => i.media.contentHash)).toEqual(['b']);
    // One round trip for the batch; a's answer is a stored result now.
    expect(asked).toEqual([['a', 'b', 'c', 'd']]);
    expect(fx.store.results.find('a', 'objects')).toMatchObject({ serviceUrl: 'http://svc' });
    expect(waits).toEqual(['c ana', 'd ana']);
    // d's claim expired (its run died): sent by this run; c's answer then appears and is taken.
    const later = await gate.sendableLater(new AbortController().signal);
    expect(later.map((i) => i.media.contentHash)).toEqual(['d']);
    expect(await gate.sendableLater(new AbortController().signal)).toEqual([]);
    expect(fx.store.results.find('c', 'objects')).toBeDefined();
    expect(gate.report).toMatchObject({ taken: 2, waitedFor: 2, held: [], offline: null });
    await gate.close();
  });

  it('reports a file held past the wait, and never sends it', async () => {
    const { hub } = scriptedHub({ e: ['held'] });
    const { gate } = gateOver(hub, 2000);
    expect(await gate.admit([item('e')])).toEqual([]);
    expect(await gate.sendableLater(new AbortController().signal)).toEqual([]);
    expect(gate.report.held).toMatchObject([
      { media: { contentHash: 'e' }, code: 'team_claim_held' },
    ]);
    await gate.close();
  });

  it('sends everything when the hub cannot be asked, and says why', async () => {
    const { hub } = scriptedHub({});
    const away = {
      ...hub,
      takeOrClaim: () =>
        Promise.reject(
          new TeamError('hub_unreachable', 'The hub cannot be reached (ECONNREFUSED).'),
        ),
    };
    const { gate } = gateOver(away);
    const now = await gate.admit([item('f'), item('g')]);
    expect(now).toHaveLength(2);
    expect(gate.report.offline).toMatch(/cannot be reached/);
    await gate.close();
  });
});
