/**
 * A run of a team project pays once per file for the whole team. Before the scheduler sends a
 * file, the gate asks the hub, a batch of files per round trip: a file whose answer the team has
 * (this solution, this service) is stored here as a result and not sent; a file nobody holds is
 * claimed for this run and sent; a file another member's run holds is not sent: the gate waits
 * for its answer (taken as it appears) or for the claim to expire (its run died), bounded by
 * `maxWaitMs`. The run renews its claims while it lives, publishes each answer it paid for at
 * once (before freeing the claim, so a waiting member finds it), and frees the rest at its end.
 * Hub unreachable (or refusing this member): the run goes on without it and may pay for a file
 * another member pays for too (said in the summary and the README); nothing waits for the hub.
 */
import type { ItemIssue } from '../runner/plan-run.js';
import type { PlannedItem, TaskOutcome } from '../runner/task-types.js';
import type { TeamAnswersPort } from '../store/store-ports.js';
import type { HubAnswer, HubClient } from './hub-client.js';
import { hubAnswersOf, storeHubAnswers } from './share-answers.js';
import { TeamError } from './team-errors.js';

/** Contents per round trip to the hub. */
const BATCH = 500;

export interface TeamGateOptions {
  store: TeamAnswersPort;
  hub: Pick<HubClient, 'takeOrClaim' | 'renewClaims' | 'releaseClaims' | 'addAnswers'>;
  solution: string;
  service: string;
  /** This run's id (a UUID). */
  run: string;
  /** A claim lives this long unless renewed (renewed every third of it). */
  ttlMs: number;
  /** How often files another member holds are asked about again. */
  pollMs: number;
  /** Longest wait for a file another member holds; then it is reported, not sent. */
  maxWaitMs: number;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told when a file starts waiting for another member's answer. */
  onWait?: (item: PlannedItem, holder: string) => void;
}

/** What the team did for a run, for its summary. */
export interface TeamRunReport {
  /** Files whose answer the team had: stored here, not sent, nothing spent. */
  taken: number;
  /** Files this run waited for while another member's run held them. */
  waitedFor: number;
  /** Files another member kept holding past the wait: not sent, reported per file. */
  held: ItemIssue[];
  /** Why the hub could not be asked: the run went on without it (it may have paid twice). */
  offline: string | null;
}

export class TeamRunGate {
  readonly report: TeamRunReport = { taken: 0, waitedFor: 0, held: [], offline: null };
  private readonly claimed = new Set<string>();
  private readonly toPublish = new Set<string>();
  private readonly toRelease = new Set<string>();
  private readonly renewal: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly o: TeamGateOptions) {
    this.renewal = setInterval(() => void this.renew(), Math.max(50, Math.floor(o.ttlMs / 3)));
    this.renewal.unref();
  }

  /** Files another member's run holds, by content: not sent by this run. */
  private readonly waiting = new Map<string, PlannedItem>();
  private waitingSince: number | undefined;
  private failure: unknown;

  /** Of these planned items, those this run may send now (claimed, or the hub away). */
  admit(items: readonly PlannedItem[]): Promise<PlannedItem[]> {
    return this.ask(items, true);
  }

  /** Items planned while sending, each batch admitted as it comes. */
  async *admitting(arrivals: AsyncIterable<readonly PlannedItem[]>): AsyncIterable<PlannedItem[]> {
    for await (const batch of arrivals) yield await this.ask(batch, true);
  }

  /** How many files still wait for another member's answer. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * Waits for the files other members hold: their answers are taken as they appear; resolves
   * with the ones whose claims expired (their runs died), now claimed by this run, or with
   * nothing when none waits any more, the wait is over (`maxWaitMs`: reported per file), or
   * `signal` aborts.
   */
  async sendableLater(signal: AbortSignal): Promise<PlannedItem[]> {
    this.waitingSince ??= this.o.now();
    while (this.waiting.size > 0 && !signal.aborted) {
      if (this.o.now() - this.waitingSince >= this.o.maxWaitMs) {
        for (const item of this.waiting.values()) {
          this.report.held.push({
            media: item.media,
            code: 'team_claim_held',
            message:
              'Another member of the team kept sending this file longer than this run waits; it was not sent twice. Run again later to take its answer.',
          });
        }
        this.waiting.clear();
        break;
      }
      const slept = await this.o.sleep(this.o.pollMs, signal).then(
        () => true,
        () => false,
      );
      if (!slept) break;
      const again = [...this.waiting.values()];
      this.waiting.clear();
      const sendable = await this.ask(again, false);
      if (sendable.length > 0) return sendable;
    }
    return [];
  }

  /** The scheduler's word on an item: an answer goes to the hub, a claim is freed. */
  settled(item: PlannedItem, outcome: TaskOutcome): void {
    const hash = item.media.contentHash;
    if (!this.claimed.has(hash)) return;
    if (outcome.kind === 'done') this.toPublish.add(hash);
    else if (outcome.kind === 'failed') this.toRelease.add(hash);
    else return;
    // A refusal is the run's, reported at its end (close); the hub away is noted, not thrown.
    this.flushing = this.flushing
      .then(() => this.flush())
      .catch((err: unknown) => {
        this.failure ??= err;
      });
  }

  /** Publishes what is left, frees every claim of the run, stops renewing. */
  async close(): Promise<void> {
    clearInterval(this.renewal);
    await this.flushing;
    if (this.failure !== undefined) throw this.failure;
    await this.flush();
    if (this.report.offline || this.claimed.size === 0) return;
    await this.o.hub
      .releaseClaims([...this.claimed], this.o)
      .catch((err: unknown) => this.away(err, undefined));
  }

  /** One round trip per batch: takes the team's answers, claims the rest, notes what waits. */
  private async ask(items: readonly PlannedItem[], first: boolean): Promise<PlannedItem[]> {
    const send: PlannedItem[] = [];
    const ask: PlannedItem[] = [];
    for (const item of items) {
      // A clip whose job exists is paid for already: collected, never sent again.
      if (item.resumeSubmissionId !== undefined || this.report.offline) send.push(item);
      else ask.push(item);
    }
    for (let i = 0; i < ask.length; i += BATCH) {
      const page = ask.slice(i, i + BATCH);
      if (this.report.offline) {
        send.push(...page);
        continue;
      }
      let replies;
      try {
        replies = await this.o.hub.takeOrClaim(
          page.map((p) => p.media.contentHash),
          this.o,
        );
      } catch (err) {
        this.away(err, () => send.push(...page));
        continue;
      }
      const byHash = new Map(replies.map((r) => [r.contentHash, r]));
      const answers: HubAnswer[] = [];
      for (const item of page) {
        const hash = item.media.contentHash;
        const reply = byHash.get(hash);
        if (reply?.state === 'answer' && reply.answer) {
          answers.push({
            contentHash: hash,
            solution: this.o.solution,
            service: this.o.service,
            answer: reply.answer,
          });
        } else if (reply?.state === 'claimed') {
          this.claimed.add(hash);
          send.push(item);
        } else {
          // Held by another run (or claimed by one at this very moment): its answer is awaited.
          if (first) {
            this.report.waitedFor++;
            this.o.onWait?.(item, reply?.who ?? 'another member');
          }
          this.waiting.set(hash, item);
        }
      }
      storeHubAnswers(this.o.store, answers);
      this.report.taken += answers.length;
    }
    return send;
  }

  private async flush(): Promise<void> {
    if (this.report.offline) return;
    const publish = [...this.toPublish];
    const release = [...this.toRelease];
    this.toPublish.clear();
    this.toRelease.clear();
    if (publish.length === 0 && release.length === 0) return;
    const results = this.o.store.team
      .resultsOf(publish)
      .filter((r) => r.solution === this.o.solution && r.serviceUrl === this.o.service);
    try {
      // The answer first: a member waiting on the claim finds it before the claim is gone.
      await this.o.hub.addAnswers(hubAnswersOf(this.o.store, results));
      await this.o.hub.releaseClaims([...publish, ...release], this.o);
      for (const hash of [...publish, ...release]) this.claimed.delete(hash);
    } catch (err) {
      this.away(err, undefined);
    }
  }

  private async renew(): Promise<void> {
    if (this.report.offline || this.claimed.size === 0) return;
    // A renewal that fails only lets the claims expire: another member may then send the files.
    await this.o.hub.renewClaims(this.o.run, this.o.ttlMs).catch((err: unknown) => {
      if (err instanceof TeamError && err.code === 'hub_unreachable')
        this.report.offline ??= err.message;
    });
  }

  /**
   * The hub went away or refused (a removed member, a changed password): the run goes on
   * without it; anything else is a fault of the run's own.
   */
  private away(err: unknown, fallBack: (() => void) | undefined): void {
    if (!(err instanceof TeamError)) throw err;
    this.report.offline ??= err.message;
    fallBack?.();
  }
}
