/**
 * Members of a team project for CLI tests: each with a PostgreSQL role on a real server, their
 * own LABELDESK_HOME and their own copy of the project's folder (at another path: files are
 * matched by content), running `labeldesk` as separate processes.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ReviewService } from '../../electron/core/review/review-service.js';
import { openLibraryStore } from '../../electron/core/review/open-library-store.js';
import { distinctJpegs } from './cli-media.js';
import { cliEnv, cliHome, lastJson, runCli, type CliResult } from './cli-run.js';
import type { PgServer } from './pg-server.js';

export interface Member {
  name: string;
  password: string;
  home: string;
  folder: string;
  env: NodeJS.ProcessEnv;
  /** The hub address, with or without the password. */
  hub(withPassword: boolean): string;
  remove: () => Promise<void>;
}

/**
 * A member with a role and a folder of two photos (the same two for every member), read by
 * `labeldesk label` (the stand-in engine) or, with `label: false`, only by `labeldesk plan`.
 */
export async function teamMember(
  server: PgServer,
  name: string,
  options: { createSchema?: boolean; label?: boolean } = {},
): Promise<Member> {
  const password = server.createRole(name, { createSchema: options.createSchema ?? false });
  const t = await cliHome();
  const folder = join(t.dir, `${name}-copy`, 'set');
  await mkdir(folder, { recursive: true });
  await distinctJpegs(folder, 2);
  const env = cliEnv(t.home, { LABELDESK_EMBEDDED_ENGINE: 'null' });
  const r = await runCli(
    options.label === false ? ['plan', folder, '--json'] : ['label', folder, '--yes', '--json'],
    env,
  );
  expect(r.code, r.stderr).toBe(0);
  return {
    name,
    password,
    home: t.home,
    folder,
    env,
    hub: (withPassword) =>
      withPassword ? server.url(name, password) : server.url(name, '').replace(':@', '@'),
    remove: t.remove,
  };
}

export function team(m: Member, args: string[]): Promise<CliResult> {
  return runCli(['team', ...args], m.env);
}

export async function teamJson<T = Record<string, unknown>>(m: Member, args: string[]): Promise<T> {
  const r = await team(m, [...args, '--json']);
  expect(r.code, `${m.name} team ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return lastJson<T>(r.stdout);
}

/** `team create` (by `lead`) or `team join` of the project `demo`, on the member's folder. */
export const linkProject = (m: Member, verb: 'create' | 'join') =>
  teamJson(m, [verb, '--hub', m.hub(true), '--project', 'demo', '--folder', m.folder]);

/** Runs `fn` with the member's review service over their library (closed afterwards). */
export function review<T>(
  m: Member,
  fn: (r: ReviewService, mediaId: (file: string) => number) => T,
): T {
  const store = openLibraryStore(join(m.home, 'library.sqlite'));
  try {
    return fn(new ReviewService(store), (file) => store.media.byPath(join(m.folder, file))!.id);
  } finally {
    store.close();
  }
}

/** A file's shown boxes as a person sees them, in a stable order. */
export const shown = (m: Member, file: string): string[] =>
  review(m, (r, id) =>
    r
      .item(id(file), 'objects')
      .boxes.filter((b) => !b.deleted)
      .map(
        (b) =>
          `${b.label} ${b.review} ${[b.bbox.x, b.bbox.y, b.bbox.w, b.bbox.h].map((v) => v.toFixed(3)).join(',')}`,
      )
      .sort(),
  );

export const ref = (b: { detectionId: number | null; correctionId: number | null }) => ({
  detectionId: b.detectionId,
  correctionId: b.correctionId,
});

/** The n-th model box of a file (by the model's own order), as the review names it. */
export const modelBox = (m: Member, file: string, n: number) =>
  review(m, (r, id) => {
    const boxes = r.item(id(file), 'objects').boxes.filter((b) => b.model !== null);
    return ref(boxes[n]!);
  });

/** A real server and its members (each as `teamMember`), removed together. */
export async function teamFixture(
  members: readonly { name: string; createSchema?: boolean; label?: boolean }[],
): Promise<{ server: PgServer; members: Member[]; remove: () => Promise<void> }> {
  const { startPgServer } = await import('./pg-server.js');
  const server = await startPgServer();
  const made: Member[] = [];
  const remove = async () => {
    for (const m of made) await m.remove();
    await server.remove();
  };
  try {
    for (const m of members) made.push(await teamMember(server, m.name, m));
  } catch (err) {
    await remove();
    throw err;
  }
  return { server, members: made, remove };
}

/** `teamFixture` for a whole test file: made before its tests, handed to `ready`, removed after. */
export function useTeamFixture(
  members: Parameters<typeof teamFixture>[0],
  ready: (fx: { server: PgServer; members: Member[] }) => void,
): void {
  let remove: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fx = await teamFixture(members);
    remove = fx.remove;
    ready(fx);
  }, 180_000);
  afterAll(() => remove?.());
}

/** `lead` creates project `demo`, adds each member, and each joins. */
export async function projectWith(lead: Member, ...members: Member[]): Promise<void> {
  await linkProject(lead, 'create');
  for (const m of members) {
    expect((await team(lead, ['member', 'add', m.name])).code).toBe(0);
    await linkProject(m, 'join');
  }
}

/** Relabels photo0's second model box, as a person's edit in the review. */
export const relabelSecondBox = (m: Member, label: string) =>
  review(m, (r, id) =>
    r.edit(id('photo0.jpg'), 'objects', {
      kind: 'relabel',
      box: modelBox(m, 'photo0.jpg', 1),
      label,
    }),
  );

/** A lead and bob (who only joins) on one server, for a whole test file. */
export function useLeadAndBob(): { lead: Member; bob: Member } {
  const pair = {} as { lead: Member; bob: Member };
  useTeamFixture([{ name: 'lead', createSchema: true }, { name: 'bob' }], (fx) => {
    [pair.lead, pair.bob] = fx.members as [Member, Member];
  });
  return pair;
}
