/**
 * A team pays once per file at run time: two members' `labeldesk label` runs, separate
 * processes with separate homes, over overlapping folders, started at the same moment against
 * one real service (`labeldesk serve`, a key per member) and one real hub. The service's own
 * count (GET /key) shows one charge per content; each member's run accounts exactly what their
 * key was charged. A run killed with SIGKILL mid-way leaves claims that expire: the other member
 * waits for them, then sends what the dead run never answered, and takes what it did.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctJpegs } from '../../support/cli-media.js';
import { cliHome, lastJson, startCli, until, type SummaryJson } from '../../support/cli-run.js';
import type { PgServer } from '../../support/pg-server.js';
import { runServe, type ServeProcess } from '../../support/run-serve.js';
import { projectWith, shown, useTeamFixture, type Member } from '../../support/team-members.js';

const GRANT = 100_000;
/** What `objects` costs per image at the embedded service. */
const IMAGE_COST = 4;
const KEYS = { lead: 'ldk_team_pay_once_lead_01', ana: 'ldk_team_pay_once_ana_001' };

let server: PgServer;
let lead: Member;
let ana: Member;
let serve: ServeProcess;
let serviceHome: Awaited<ReturnType<typeof cliHome>>;

useTeamFixture(
  [
    { name: 'lead', createSchema: true, label: false },
    { name: 'ana', label: false },
  ],
  (fx) => {
    server = fx.server;
    [lead, ana] = fx.members as [Member, Member];
  },
);

beforeAll(async () => {
  serviceHome = await cliHome();
  serve = await runServe([
    '--engine',
    'null',
    '--latency-ms',
    '150',
    '--data',
    join(serviceHome.dir, 'service'),
    '--key',
    `${KEYS.lead}:${GRANT}`,
    '--key',
    `${KEYS.ana}:${GRANT}`,
  ]);
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await serviceHome?.remove();
});

type TeamSummary = SummaryJson & {
  framesSpent: number;
  labelled: number;
  reused: number;
  team?: { taken: number; waitedFor: number; offline: string | null };
};

/** What the service charged a key so far, by its own count. */
async function charged(key: string): Promise<number> {
  const res = await fetch(`${serve.url}/key`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { remaining: number };
  return GRANT - body.remaining;
}

const label = (m: Member, extra: NodeJS.ProcessEnv = {}, args: string[] = []) =>
  startCli(['label', m.folder, '--service', serve.url, '--yes', '--json', ...args], {
    ...m.env,
    LABELDESK_API_KEY: KEYS[m.name as keyof typeof KEYS],
    ...extra,
  });

async function summaryOf(run: ReturnType<typeof startCli>): Promise<TeamSummary> {
  const end = await run.exited;
  expect(end.code, run.stderr()).toBe(0);
  return lastJson<TeamSummary>(run.stdout());
}

const hubCount = (where: string) =>
  Number(server.sql(`SELECT count(*) FROM labeldesk_demo.${where}`));

describe('a team pays once per file, at run time', () => {
  it('sends each file of overlapping folders once when two members run at the same moment', async () => {
    await projectWith(lead, ana);
    // Ten files both have (and the two photos of the fixture), two only each of them has.
    for (const m of [lead, ana]) await distinctJpegs(m.folder, 10, 'shot', 10);
    await distinctJpegs(lead.folder, 2, 'mine', 30);
    await distinctJpegs(ana.folder, 2, 'mine', 40);
    const [a, b] = [label(lead), label(ana)];
    const [byLead, byAna] = [await summaryOf(a), await summaryOf(b)];
    const contents = 12 + 2 + 2;
    expect(byLead.labelled + byAna.labelled).toBe(contents);
    // Each member's account is what the service charged their key, and together one charge per file.
    const [leadPaid, anaPaid] = [await charged(KEYS.lead), await charged(KEYS.ana)];
    expect(byLead.framesSpent).toBe(leadPaid);
    expect(byAna.framesSpent).toBe(anaPaid);
    expect(leadPaid + anaPaid).toBe(contents * IMAGE_COST);
    // Every file is labelled on both desktops, the shared ones with the same boxes.
    for (const s of [byLead, byAna]) expect(s.labelled + s.reused).toBe(14);
    expect(byLead.team?.taken ?? 0).toBe(14 - byLead.labelled);
    expect(byAna.team?.offline ?? null).toBeNull();
    for (const file of ['shot0.jpg', 'shot9.jpg', 'photo1.jpg']) {
      expect(shown(ana, file).length).toBeGreaterThan(0);
      expect(shown(ana, file)).toEqual(shown(lead, file));
    }
    // Every claim was freed at the runs' ends.
    expect(hubCount('claims')).toBe(0);
  }, 180_000);

  it("takes over a killed run's files once its claims expire, and pays none it answered", async () => {
    for (const m of [lead, ana]) await distinctJpegs(m.folder, 8, 'late', 50);
    const answersBefore = hubCount('answers');
    const anaPaidBefore = await charged(KEYS.ana);
    // The lead's run sends one file at a time, its claims living 4 s unless renewed.
    const doomed = label(lead, { LABELDESK_TEAM_CLAIM_MS: '4000' }, ['--concurrency', '1']);
    await until(
      "the lead's first answers in the hub",
      () => hubCount('answers') >= answersBefore + 2,
      60_000,
    );
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const answeredByLead = hubCount('answers') - answersBefore;
    expect(hubCount("claims WHERE holder = 'lead'")).toBeGreaterThan(0);
    const anaRun = label(ana, { LABELDESK_TEAM_POLL_MS: '200' });
    const byAna = await summaryOf(anaRun);
    // Each file waited for is said, with who holds it.
    await anaRun.waitForOutput(/lead is sending .*late\d\.jpg: waiting for that answer/, {
      stream: 'stderr',
      timeoutMs: 5000,
    });
    // Ana waited for the files the dead run held, then sent those it never answered.
    expect(byAna.team?.waitedFor).toBeGreaterThan(0);
    expect(byAna.team!.taken + byAna.labelled).toBe(8);
    expect(byAna.team!.taken).toBeGreaterThanOrEqual(answeredByLead);
    expect(byAna.labelled).toBeLessThanOrEqual(8 - answeredByLead);
    expect(byAna.framesSpent).toBe((await charged(KEYS.ana)) - anaPaidBefore);
    expect(byAna.framesSpent).toBe(byAna.labelled * IMAGE_COST);
    for (let i = 0; i < 8; i++) expect(shown(ana, `late${i}.jpg`).length).toBeGreaterThan(0);
    expect(hubCount("claims WHERE holder = 'ana'")).toBe(0);
  }, 180_000);

  it('goes on without the hub when it is away, and says a file may have been paid twice', async () => {
    await distinctJpegs(ana.folder, 2, 'away', 70);
    server.stop();
    try {
      const byAna = await summaryOf(label(ana));
      expect(byAna.labelled).toBe(2);
      expect(byAna.team).toMatchObject({
        taken: 0,
        offline: expect.stringMatching(/cannot be reached/),
      });
    } finally {
      server.start();
    }
  }, 120_000);
});
