/**
 * One desktop's connection to a project in the hub (postgres.js; which host of a multi-host
 * address it reaches is chosen by hub-connect.ts). Every statement names the project's schema; every
 * refusal comes from the database (grants, row-level security) and is turned into a TeamError.
 */
import type postgres from 'postgres';
import type { PulledMark, TeamMark } from '../store/team-marks-types.js';
import type { PulledChange, TeamChange } from '../store/team-types.js';
import {
  changesChannel,
  createProjectSql,
  grantMemberSql,
  HUB_FORMAT,
  projectSchema,
  quoteIdent,
  revokeMemberSql,
} from './hub-schema.js';
import {
  claimsTableSql,
  grantClaimsSql,
  releaseClaimsSql,
  renewClaimsSql,
  takeOrClaimSql,
  type ClaimTarget,
} from './hub-claims-schema.js';
import { grantMarksSql, marksTableSql, pullMarksSql, pushMarksSql } from './hub-marks-schema.js';
import { hubDriver, type HubConnector } from './hub-connect.js';
import { keepListening, type Listening } from './hub-connect-listen.js';
import { upgradeHub } from './hub-upgrade.js';
import { TeamError, teamErrorOf } from './team-errors.js';
import { answerKey, type ClaimReply, type HubAnswer, type HubFile } from './hub-types.js';

export { answerKey, type ClaimReply, type HubAnswer, type HubFile } from './hub-types.js';

export interface HubClientOptions {
  /** The address without its password (hub-url.ts), and the password from the keychain. */
  address: string;
  password: string | undefined;
  project: string;
  connectTimeoutSeconds?: number;
}

export class HubClient {
  private readonly sql: postgres.Sql;
  private readonly client: (lost?: () => void) => postgres.Sql;
  private listening: Listening | undefined;
  /** Which of the address's hosts the connections go to (hub-connect.ts). */
  readonly connector: HubConnector;
  readonly schema: string;
  private readonly s: string;

  constructor(options: HubClientOptions) {
    this.schema = projectSchema(options.project);
    this.s = quoteIdent(this.schema);
    const driver = hubDriver(options);
    this.connector = driver.connector;
    this.client = driver.open;
    this.sql = this.client();
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      await this.connector.choose();
      return await work();
    } catch (err) {
      const e = teamErrorOf(err, this.schema);
      // A standby (or a demoted primary) answered: the next statement chooses a host again.
      if (e instanceof TeamError && e.code === 'hub_unreachable') this.connector.drop();
      throw e;
    }
  }

  /** One statement, for hub operations kept in files of their own (hub-connect-check.ts). */
  query<T extends object[]>(text: string, params: unknown[]): Promise<T> {
    return this.run(() => this.sql.unsafe<T>(text, params as postgres.ParameterOrJSON<never>[]));
  }

  /**
   * Calls `wake` whenever a member pushes changes to the project (the hub's NOTIFY, on a
   * connection of its own, re-made on the primary of the moment: hub-connect-listen.ts).
   */
  async listen(wake: () => void): Promise<void> {
    await this.listening?.stop();
    this.listening = await this.run(() =>
      keepListening(this.client, this.connector, changesChannel(this.schema), wake),
    );
  }

  async close(): Promise<void> {
    await this.listening?.stop();
    await this.sql.end({ timeout: 2 });
  }

  /** Runs a hub operation kept in its own file (hub-work.ts …) on this connection. */
  use<T>(work: (sql: postgres.Sql, s: string) => Promise<T>): Promise<T> {
    return this.run(() => work(this.sql, this.s));
  }

  /** Creates the project's schema; the connecting role becomes its lead. */
  createProject(project: string, folder: string): Promise<void> {
    return this.run(async () => {
      await this.sql.begin(async (tx) => {
        await tx.unsafe(createProjectSql(this.schema, project, folder)).simple();
        await tx.unsafe(claimsTableSql(this.s)).simple();
        await tx.unsafe(marksTableSql(this.s, this.schema)).simple();
      });
    });
  }

  /** A project made before the claims and marks tables gets them (hub-upgrade.ts; the lead). */
  upgrade(): Promise<boolean> {
    return this.run(() => upgradeHub(this.sql, this.schema));
  }

  /** The connecting role's place in the project; refused (not_member) when it has none. */
  whoAmI(): Promise<{ member: string; role: 'lead' | 'annotator' }> {
    return this.run(async () => {
      const rows = await this.sql.unsafe<{ member: string; role: string; format: number }[]>(
        `SELECT m.role_name AS member, m.role, p.format FROM ${this.s}.members m, ${this.s}.project p
         WHERE m.role_name = current_user`,
      );
      const me = rows[0];
      if (!me) {
        throw new TeamError('not_member', 'Your role is not a member of this project.');
      }
      if (me.format !== HUB_FORMAT) {
        throw new TeamError(
          'hub_format',
          `This project was made by another LabelDesk version (hub format ${me.format}, this one reads ${HUB_FORMAT}).`,
        );
      }
      return { member: me.member, role: me.role === 'lead' ? 'lead' : 'annotator' };
    });
  }

  addMember(role: string, memberRole: 'lead' | 'annotator'): Promise<void> {
    return this.run(async () => {
      const exists = await this.sql`SELECT 1 FROM pg_roles WHERE rolname = ${role}`;
      if (exists.length === 0) {
        throw new TeamError(
          'unknown_role',
          `There is no PostgreSQL role "${role}" on the hub: whoever runs the server creates it (CREATE ROLE … LOGIN PASSWORD …), then add it again.`,
        );
      }
      await this.sql.begin(async (tx) => {
        await tx.unsafe(grantMemberSql(this.schema, role, memberRole)).simple();
        await tx.unsafe(grantClaimsSql(this.schema, role)).simple();
        await tx.unsafe(grantMarksSql(this.schema, role)).simple();
      });
    });
  }

  removeMember(role: string): Promise<boolean> {
    return this.run(async () => {
      const rows = await this.sql.unsafe(
        `SELECT 1 FROM ${this.s}.members WHERE role_name = $1 AND role_name <> current_user`,
        [role],
      );
      if (rows.length === 0) return false;
      await this.sql.begin(async (tx) => {
        await tx.unsafe(revokeMemberSql(this.schema, role)).simple();
      });
      return true;
    });
  }

  /** Stores changes once each (by id): a change pushed twice after a crash is kept once. */
  push(changes: readonly TeamChange[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    const rows = changes.map((c) => ({
      id: c.id,
      payload: {
        box: c.box,
        contentHash: c.contentHash,
        solution: c.solution,
        parents: c.parents,
        state: c.state,
        at: c.at,
      },
    }));
    return this.run(async () => {
      await this.sql.unsafe(
        `INSERT INTO ${this.s}.changes (id, kind, payload)
         SELECT (x->>'id')::uuid, 'box', x->'payload' FROM jsonb_array_elements($1::jsonb) x
         ON CONFLICT (id) DO NOTHING`,
        [this.sql.json(rows as unknown as postgres.JSONValue)],
      );
    });
  }

  /** Changes after `cursor`, in the hub's order. */
  pull(cursor: number, limit: number): Promise<PulledChange[]> {
    return this.run(async () => {
      const rows = await this.sql.unsafe<
        { seq: string; id: string; member: string; payload: Omit<TeamChange, 'id'> }[]
      >(
        `SELECT seq, id, member, payload FROM ${this.s}.changes WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [cursor, limit],
      );
      return rows.map((r) => ({
        id: r.id,
        seq: Number(r.seq),
        member: r.member,
        box: r.payload.box,
        contentHash: r.payload.contentHash,
        solution: r.payload.solution,
        parents: r.payload.parents,
        state: r.payload.state,
        at: r.payload.at,
      }));
    });
  }

  /** Publishes files (by content); a content already there keeps its first path. */
  addFiles(files: readonly HubFile[]): Promise<void> {
    if (files.length === 0) return Promise.resolve();
    return this.run(async () => {
      await this.sql.unsafe(
        `INSERT INTO ${this.s}.files (content_hash, rel_path, size, kind, width, height)
         SELECT x->>'contentHash', x->>'relPath', (x->>'size')::bigint, x->>'kind',
           (x->>'width')::integer, (x->>'height')::integer
         FROM jsonb_array_elements($1::jsonb) x
         ON CONFLICT (content_hash) DO NOTHING`,
        [this.sql.json(files as unknown as postgres.JSONValue)],
      );
    });
  }

  /** The answers the hub holds for these contents, as `hash solution` keys (any service). */
  answerKeys(contentHashes: readonly string[]): Promise<Set<string>> {
    return this.run(async () => {
      const rows = await this.sql.unsafe<{ content_hash: string; solution: string }[]>(
        `SELECT content_hash, solution FROM ${this.s}.answers WHERE content_hash = ANY($1)`,
        [contentHashes as string[]],
      );
      return new Set(rows.map((r) => answerKey(r.content_hash, r.solution)));
    });
  }

  /** Stores answers once per content, solution and service (the first payer keeps it). */
  addAnswers(answers: readonly HubAnswer[]): Promise<void> {
    if (answers.length === 0) return Promise.resolve();
    return this.run(async () => {
      await this.sql.unsafe(
        `INSERT INTO ${this.s}.answers (content_hash, solution, service, answer, frames)
         SELECT x->>'contentHash', x->>'solution', x->>'service', x->'answer', (x->>'frames')::integer
         FROM jsonb_array_elements($1::jsonb) x
         ON CONFLICT (content_hash, solution, service) DO NOTHING`,
        [this.sql.json(answers as unknown as postgres.JSONValue)],
      );
    });
  }

  /** The hub's answers for these contents (the oldest per content and solution first). */
  answers(contentHashes: readonly string[]): Promise<(HubAnswer & { paidBy: string })[]> {
    return this.run(async () => {
      const rows = await this.sql.unsafe<
        {
          content_hash: string;
          solution: string;
          service: string;
          answer: HubAnswer['answer'];
          paid_by: string;
        }[]
      >(
        `SELECT content_hash, solution, service, answer, paid_by FROM ${this.s}.answers
         WHERE content_hash = ANY($1) ORDER BY added_at`,
        [contentHashes as string[]],
      );
      return rows.map((r) => ({
        contentHash: r.content_hash,
        solution: r.solution,
        service: r.service,
        answer: r.answer,
        paidBy: r.paid_by,
      }));
    });
  }

  /** What `team status` shows from the hub: changes after the cursor, files, labelled files. */
  counts(cursor: number): Promise<{ pendingPull: number; files: number; labelledFiles: number }> {
    return this.run(async () => {
      const rows = await this.sql.unsafe<{ pending: string; files: string; labelled: string }[]>(
        `SELECT (SELECT count(*) FROM ${this.s}.changes WHERE seq > $1) AS pending,
           (SELECT count(*) FROM ${this.s}.files) AS files,
           (SELECT count(*) FROM ${this.s}.files f WHERE
              EXISTS (SELECT 1 FROM ${this.s}.answers a WHERE a.content_hash = f.content_hash)
              OR EXISTS (SELECT 1 FROM ${this.s}.changes c
                WHERE c.payload->>'contentHash' = f.content_hash)) AS labelled`,
        [cursor],
      );
      const r = rows[0];
      return {
        pendingPull: Number(r?.pending ?? 0),
        files: Number(r?.files ?? 0),
        labelledFiles: Number(r?.labelled ?? 0),
      };
    });
  }

  /**
   * Per content of a batch (one round trip): the team's answer for this solution and service,
   * or a claim this run now holds, or the member holding it (hub-claims-schema.ts).
   */
  takeOrClaim(contentHashes: readonly string[], target: ClaimTarget): Promise<ClaimReply[]> {
    if (contentHashes.length === 0) return Promise.resolve([]);
    return this.run(async () => {
      const rows = await this.sql.unsafe<
        {
          content_hash: string;
          state: 'answer' | 'claimed' | 'held';
          answer: HubAnswer['answer'] | null;
          who: string;
          until: Date | null;
        }[]
      >(takeOrClaimSql(this.s), [
        contentHashes as string[],
        target.solution,
        target.service,
        target.run,
        target.ttlMs,
      ]);
      return rows.map((r) => ({
        contentHash: r.content_hash,
        state: r.state,
        answer: r.answer,
        who: r.who,
        until: r.until ? r.until.getTime() : null,
      }));
    });
  }

  /** Keeps a run's claims alive for another time-to-live; how many it holds. */
  renewClaims(run: string, ttlMs: number): Promise<number> {
    return this.run(
      async () => (await this.sql.unsafe(renewClaimsSql(this.s), [run, ttlMs])).count,
    );
  }

  /** Frees a run's claims on contents it is done with (answered, refused, or not sent). */
  releaseClaims(
    contentHashes: readonly string[],
    target: Omit<ClaimTarget, 'ttlMs'>,
  ): Promise<void> {
    if (contentHashes.length === 0) return Promise.resolve();
    return this.run(async () => {
      await this.sql.unsafe(releaseClaimsSql(this.s), [
        target.run,
        contentHashes as string[],
        target.solution,
        target.service,
      ]);
    });
  }

  /** Stores review marks once each (by id). */
  pushMarks(marks: readonly TeamMark[]): Promise<void> {
    if (marks.length === 0) return Promise.resolve();
    return this.run(async () => {
      await this.sql.unsafe(pushMarksSql(this.s), [
        this.sql.json(marks as unknown as postgres.JSONValue),
      ]);
    });
  }

  /** Review marks after `cursor`, in the hub's order. */
  pullMarks(cursor: number, limit: number): Promise<PulledMark[]> {
    return this.run(async () => {
      const rows = await this.sql.unsafe<
        {
          seq: string;
          id: string;
          member: string;
          content_hash: string;
          solution: string;
          reviewed: boolean;
          reviewed_by: 'person' | 'import' | null;
        }[]
      >(pullMarksSql(this.s), [cursor, limit]);
      return rows.map((r) => ({
        seq: Number(r.seq),
        id: r.id,
        member: r.member,
        contentHash: r.content_hash,
        solution: r.solution,
        reviewed: r.reviewed,
        reviewedBy: r.reviewed_by,
      }));
    });
  }
}
