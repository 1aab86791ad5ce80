/**
 * The app's team project: the Team screen's calls, and a sync engine that keeps the library in
 * step with the hub while the app runs (woken by the hub's NOTIFY). Every change of what the
 * shell's badge shows is pushed as a `team.changed` event: after a sync, when the hub goes away
 * or comes back, and when a person's edit waits to go out. The renderer never polls the hub.
 */
import { LabelDeskError } from '../shared/contract/labeldesk-error.js';
import type { TeamState } from '../shared/contract/team-schemas.js';
import type { AppContext } from './app-context.js';
import type { AppEvents } from './app-events.js';
import { TeamError, teamProjects, type TeamStatus } from './team-projects.js';

const NO_PROJECT: TeamState = {
  project: null,
  member: null,
  role: null,
  hub: null,
  folder: null,
  online: false,
  offlineReason: null,
  pendingPush: 0,
  pendingPull: null,
  lastSyncAt: null,
  conflicts: 0,
  files: null,
  labelledFiles: null,
  error: null,
};

const errorOf = (err: unknown) => ({
  code:
    typeof (err as { code?: unknown }).code === 'string'
      ? (err as { code: string }).code
      : 'internal_error',
  message: err instanceof Error ? err.message : String(err),
});

export class TeamSession {
  private readonly team: ReturnType<typeof teamProjects>;
  private state: TeamState = NO_PROJECT;
  /** How many refreshes were asked: only the latest one's answer is kept. */
  private refreshes = 0;
  private watch: { stop: AbortController; done: Promise<void> } | undefined;

  constructor(
    private readonly app: AppContext,
    private readonly events: AppEvents,
    private readonly log: (line: string) => void,
  ) {
    this.team = teamProjects(app);
  }

  /** Reads the library's link and, when in a project, starts syncing in the background. */
  start(): void {
    this.fromLibrary();
    this.emit();
    if (this.state.project !== null) this.startWatch();
  }

  current(): TeamState {
    return this.state;
  }

  /** What the library alone says (no hub): the project, what waits to go out, conflicts. */
  private fromLibrary(): boolean {
    const link = this.app.store.team.link();
    if (!link) {
      const changed = this.state.project !== null;
      this.state = NO_PROJECT;
      return changed;
    }
    const counts = this.app.store.team.counts();
    const next: TeamState = {
      ...this.state,
      project: link.project,
      member: link.member,
      role: link.role,
      hub: link.hub,
      folder: link.folder,
      lastSyncAt: link.lastSyncAt,
      pendingPush: counts.pendingPush,
      conflicts: counts.conflicts,
    };
    const changed = JSON.stringify(next) !== JSON.stringify(this.state);
    this.state = next;
    return changed;
  }

  private emit(): void {
    this.events.emit('team.changed', this.state);
  }

  /** A person's edit (or anything that changed the library): the badge's counts, if they moved. */
  libraryChanged(): void {
    if (this.fromLibrary()) this.emit();
  }

  /** The hub's counts too (one short connection); offline is a state, not a failure. */
  async refresh(): Promise<TeamState> {
    const asked = ++this.refreshes;
    this.fromLibrary();
    if (this.state.project === null) return this.state;
    try {
      const s: TeamStatus = await this.team.status();
      // Refreshes overlap (a push beside a pull, then the sync's end): one started earlier may
      // answer later, with counts from before a pull was applied. The latest one says.
      if (asked !== this.refreshes) return this.state;
      this.state = {
        ...this.state,
        online: s.online,
        offlineReason: s.offlineReason,
        pendingPull: s.pendingPull,
        files: s.files ?? this.state.files,
        labelledFiles: s.labelledFiles ?? this.state.labelledFiles,
        pendingPush: s.pendingPush,
        conflicts: s.conflicts,
        lastSyncAt: s.lastSyncAt,
      };
      // What waits to go out and the conflicts are the library's, as of now, not of the ask.
      this.fromLibrary();
    } catch (err) {
      if (asked !== this.refreshes) return this.state;
      this.state = { ...this.state, error: errorOf(err) };
    }
    this.emit();
    return this.state;
  }

  private startWatch(): void {
    if (this.watch) return;
    const stop = new AbortController();
    const done = this.team
      .watch(stop.signal, {
        onSync: () => {
          // Pulled changes changed labels: every view refreshes, and the badge.
          this.events.emit('library.changed', { folderIds: [], at: Date.now() });
          void this.refresh();
        },
        onOnline: (online, reason) => {
          this.state = { ...this.state, online, offlineReason: reason, error: null };
          if (online) void this.refresh();
          else this.emit();
        },
      })
      .catch((err: unknown) => {
        const e = errorOf(err);
        this.log(`team: syncing stopped: ${e.message} (${e.code})`);
        this.state = { ...this.state, online: false, error: e };
        this.emit();
      })
      .finally(() => {
        if (this.watch?.stop === stop) this.watch = undefined;
      });
    this.watch = { stop, done };
  }

  private async stopWatch(): Promise<void> {
    const w = this.watch;
    this.watch = undefined;
    if (!w) return;
    w.stop.abort();
    await w.done;
  }

  async link(o: {
    create: boolean;
    hub: string;
    project: string;
    folder: string;
    password?: string;
  }): Promise<TeamState> {
    const { create, ...options } = o;
    await this.team[create ? 'create' : 'join'](options);
    this.state = { ...NO_PROJECT };
    await this.refresh();
    this.startWatch();
    return this.state;
  }

  private requireLead(): void {
    if (this.state.role !== 'lead') {
      throw new LabelDeskError('not_lead', 'Only a lead of the project adds and removes members.');
    }
  }

  async addMember(role: string, as: 'lead' | 'annotator'): Promise<TeamState> {
    this.fromLibrary();
    this.requireLead();
    await this.team.addMember(role, as);
    return this.refresh();
  }

  async removeMember(role: string): Promise<TeamState> {
    this.fromLibrary();
    this.requireLead();
    if (!(await this.team.removeMember(role))) {
      throw new LabelDeskError('not_member', `${role} is not a member of this project.`);
    }
    return this.refresh();
  }

  /** Sync now: answers, files and changes both ways; a hub away is said in the state. */
  async sync(): Promise<TeamState> {
    try {
      await this.team.sync();
      this.events.emit('library.changed', { folderIds: [], at: Date.now() });
      this.state = { ...this.state, error: null };
    } catch (err) {
      if (!(err instanceof TeamError) || err.code !== 'hub_unreachable') throw err;
    }
    const s = await this.refresh();
    // A sync after a stop (a refusal since put right) starts watching again.
    if (s.online) this.startWatch();
    return s;
  }

  async leave(): Promise<TeamState> {
    await this.stopWatch();
    await this.team.leave();
    this.state = NO_PROJECT;
    this.emit();
    return this.state;
  }

  conflicts(contentHash?: string, mediaId?: number) {
    if (mediaId === undefined) return this.team.conflicts(contentHash);
    // An item not hashed yet has no team box.
    const hash = this.app.store.media.byId(mediaId)?.contentHash;
    return hash ? this.team.conflicts(hash) : [];
  }

  resolve(ids: readonly string[], all: boolean, keep: string) {
    if (all === ids.length > 0) {
      throw new LabelDeskError('invalid_arguments', 'Name conflict ids, or all (not both).');
    }
    const r = this.team.resolve(all ? 'all' : { ids }, keep);
    if (r.resolved.length > 0) {
      this.events.emit('library.changed', { folderIds: [], at: Date.now() });
      this.libraryChanged();
    }
    return r;
  }

  close(): Promise<void> {
    return this.stopWatch();
  }
}
