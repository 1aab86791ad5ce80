/**
 * Which service the app talks to, and what it knows of it: the embedded service (default, started
 * in-process on loopback) or a hosted one (base URL + a key from the keychain). Keys stay here and
 * in the keychain: the state handed to the UI says only whether one exists and where it lives.
 */
import { KeychainUnavailableError } from '../core/credentials/index.js';
import type { CatalogView, ServicePort } from '../core/runner/service-port.js';
import type { Catalog } from '../core/service/service-adapter.js';
import { withLearntCosts } from '../core/runner/learn-cost.js';
import { ServiceClient } from '../core/service/service-client.js';
import { latestStoredCatalog, StoredCatalogError } from '../core/service/adapter/stored-catalog.js';
import type { LocalService } from '../local-service/service.js';
import { LabelDeskError, type ServiceState } from '../shared/contract/index.js';
import type { AppContext } from './app-context.js';
import type { AppEvents } from './app-events.js';
import { ORIGIN_ASSUMED_IN_APP, originUndecided, recordOrigin } from './box-origin-watch.js';
import { rereadOnDecision } from './origin-decided-reread.js';
import { connectService, type ServiceConnection } from './service-connection.js';
import { EMBEDDED_ACCOUNT, servicePortOf } from './service-port.js';
import { saveCheckedKey, startTrialKey } from './service-login.js';
import { readSetting } from './stored-setting.js';
import { messageOf } from '../shared/error-message.js';
import { blankState, Choice, trimUrl } from './service-choice.js';

type KeyStore = ServiceState['keyStore'];

const CHOICE_SETTING = 'app.service';
const REFRESH_MS = 30_000;

interface Connection {
  choice: Choice;
  /** The identity results and the ledger are stored under. */
  identity: string;
  url: string;
  client: ServiceClient | undefined;
  keyStore: KeyStore;
  standIn: boolean;
  embedded?: LocalService;
}

export interface ServiceHubOptions {
  app: AppContext;
  events: AppEvents;
  notice: (line: string) => void;
  log: (line: string) => void;
}

export class ServiceHub {
  private conn: Connection | undefined;
  private state: ServiceState;
  private catalogCache: Catalog | undefined;
  private timer: NodeJS.Timeout | undefined;
  /**
   * Whether the embedded service may analyse (and resume stored clip jobs): only while this app
   * holds the library's write lock for a run. Otherwise it serves the catalog and the key only, so
   * it never works on jobs a `labeldesk label` process is running on the same data.
   */
  private analysis = false;

  constructor(private readonly o: ServiceHubOptions) {
    this.state = blankState({ kind: 'embedded' }, 'starting', 'Starting the embedded service…');
  }

  current(): ServiceState {
    return this.state;
  }

  /** The name results are stored under for the current service. */
  identity(): string {
    return this.conn?.identity ?? EMBEDDED_ACCOUNT;
  }

  async start(): Promise<ServiceState> {
    const saved = readSetting(this.o.app.store, CHOICE_SETTING, Choice, this.o.log);
    const choice: Choice = saved ?? { kind: 'embedded' };
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), REFRESH_MS);
    this.timer.unref();
    return this.switchTo(choice);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closing = true;
    // A service still starting is closed once started, never left running behind us.
    await this.switching;
    await this.conn?.embedded?.close();
    this.conn = undefined;
  }

  /** Turns analysis on (a run holds the lock) or off; restarts the embedded service if needed. */
  async setAnalysis(on: boolean): Promise<void> {
    if (this.analysis === on) return;
    this.analysis = on;
    const c = this.conn;
    if (c?.embedded) {
      await this.switchTo(c.choice);
      const engine = this.conn?.embedded?.engine;
      if (on && engine && engine.kind !== 'off') await engine.whenReady();
    }
  }

  /** Starts the embedded service again when it is the one in use (its own models changed). */
  async restartEmbedded(): Promise<ServiceState> {
    const c = this.conn;
    return c?.embedded ? this.switchTo(c.choice) : this.state;
  }

  async useEmbedded(): Promise<ServiceState> {
    return this.switchTo({ kind: 'embedded' });
  }

  async useHosted(baseUrl: string, apiKey: string): Promise<ServiceState> {
    const url = trimUrl(baseUrl);
    // The key is checked against the service before it is kept: a typo is told at once.
    try {
      await saveCheckedKey(this.o.app, url, apiKey);
    } catch (err) {
      if (err instanceof KeychainUnavailableError) {
        throw new LabelDeskError('keychain_unavailable', err.message);
      }
      throw err;
    }
    return this.switchTo({ kind: 'hosted', baseUrl: url });
  }

  async startTrial(baseUrl: string): Promise<ServiceState> {
    const url = trimUrl(baseUrl);
    await startTrialKey(this.o.app, url);
    return this.switchTo({ kind: 'hosted', baseUrl: url });
  }

  async forgetKey(): Promise<ServiceState> {
    const c = this.conn;
    if (c?.choice.kind === 'hosted') await this.o.app.credentials.forget(c.choice.baseUrl);
    return this.switchTo(c?.choice ?? { kind: 'embedded' });
  }

  /**
   * The connection a run needs: a client with a key, and the catalog; refused when offline.
   * `say`: where the run's lines go (held answers read again once its answers decide the origin).
   */
  async forRun(say: (line: string) => void = this.o.notice): Promise<{
    port: ServicePort;
    catalog: CatalogView & Catalog;
    client: ServiceClient;
  }> {
    const c = this.conn;
    if (!c?.client) {
      throw new LabelDeskError(
        'no_key',
        'There is no API key for this service: add one on the Service screen.',
      );
    }
    const catalog = await c.client.catalog();
    this.rememberCatalog(c, catalog);
    // A run's answers read as corners only because nothing decided leave the origin undecided,
    // which Check service then reports (issue 23 §3); boxes that decide it read the held again.
    const onNotes = (notes: Parameters<typeof recordOrigin>[2]) => {
      const origin = recordOrigin(this.o.app.store, c.identity, notes);
      if (origin === 'decided') void rereadOnDecision(this.o.app.store, notes, say);
      else if (origin === 'undecided' && originUndecided(this.o.app.store, c.identity))
        say(ORIGIN_ASSUMED_IN_APP);
    };
    return { port: servicePortOf(c.identity, c.client, onNotes), catalog, client: c.client };
  }

  /** The catalog for estimates and filters: live when online, else the last one stored. */
  async catalog(): Promise<Catalog | undefined> {
    await this.switching;
    const c = this.conn;
    if (c?.client && this.state.status === 'online' && this.catalogCache) return this.catalogCache;
    if (c) {
      try {
        const catalog = await new ServiceClient({ baseUrl: c.url }).catalog();
        this.rememberCatalog(c, catalog);
        return catalog;
      } catch {
        const stored = latestStoredCatalog(this.o.app.store.catalog, c.identity);
        if (stored) return stored;
      }
    }
    return this.catalogCache;
  }

  /** What Check service talks to: the current service, with its key when there is one. */
  async checkTarget() {
    await this.switching;
    const c = this.conn;
    if (!c) throw new LabelDeskError('no_service', 'No service is connected yet.');
    const service = c.embedded ? `the embedded service (${c.url})` : c.url;
    const client = c.client ?? new ServiceClient({ baseUrl: c.url });
    return { service, identity: c.identity, client, hasKey: c.client !== undefined };
  }

  async keyCredits(): Promise<ServiceState['credits']> {
    await this.switching;
    return this.creditsOf(this.conn?.client);
  }

  private async creditsOf(client: ServiceClient | undefined): Promise<ServiceState['credits']> {
    if (!client) return null;
    try {
      const k = await client.keyStatus();
      return {
        audience: k.audience,
        remaining: k.remaining,
        hourRemaining: k.hourRemaining,
        expiresAt: k.expiresAt,
      };
    } catch {
      return null;
    }
  }

  /** Asks the service for its catalog, health and the key's credits; offline when unreachable. */
  async refresh(): Promise<ServiceState> {
    // Never answer from the middle of a switch (e.g. a run turning analysis on or off).
    await this.switching;
    return this.refreshNow();
  }

  private async refreshNow(): Promise<ServiceState> {
    const c = this.conn;
    if (!c) return this.state;
    const anonymous = new ServiceClient({ baseUrl: c.url });
    let next: ServiceState;
    try {
      const [published, health] = await Promise.all([anonymous.catalog(), anonymous.health()]);
      this.rememberCatalog(c, published);
      // Costs the service does not publish are shown as learnt, once they are.
      const catalog = withLearntCosts(published, this.o.app.store.costs, c.identity);
      const credits = await this.creditsOf(c.client);
      const ready = c.embedded ? isReady(c.embedded) : true;
      next = {
        ...blankState(
          c.choice,
          ready ? 'online' : 'starting',
          ready ? null : 'Loading the detection models…',
        ),
        baseUrl: c.url,
        version: catalog.version,
        health: health.status,
        engine: engineOf(c, health),
        solutions: catalog.solutions.map((s) => ({
          id: s.id,
          name: s.name ?? s.id,
          description: s.description ?? '',
          media: s.media,
          classes: s.classes,
          frameCost: s.frameCost,
        })),
        limits: { ...catalog.limits },
        hasKey: c.client !== undefined,
        keyStore: c.keyStore,
        credits,
      };
    } catch (err) {
      // Offline, a damaged snapshot is said beside the reason, not thrown over it.
      let catalog: Catalog | undefined;
      let snapshotProblem = '';
      try {
        catalog = latestStoredCatalog(this.o.app.store.catalog, c.identity);
      } catch (bad) {
        if (!(bad instanceof StoredCatalogError)) throw bad;
        snapshotProblem = ` ${bad.message}`;
      }
      next = {
        ...blankState(
          c.choice,
          'offline',
          `${c.url} cannot be reached: ${messageOf(err)}${snapshotProblem}`,
        ),
        baseUrl: c.url,
        version: catalog?.version ?? null,
        solutions: (catalog?.solutions ?? []).map((s) => ({
          id: s.id,
          name: s.name ?? s.id,
          description: s.description ?? '',
          media: s.media,
          classes: s.classes,
          frameCost: s.frameCost,
        })),
        hasKey: c.client !== undefined,
        keyStore: c.keyStore,
      };
    }
    // A switch happened meanwhile (a run turned analysis on): this answer is about the old one.
    if (this.conn !== c) return this.state;
    this.state = next;
    this.o.events.emit('service.changed', next);
    return next;
  }

  private switching: Promise<unknown> = Promise.resolve();

  /** Switches run one at a time: a run starting while the app starts waits for it. */
  private switchTo(choice: Choice): Promise<ServiceState> {
    const next = this.switching.then(
      () => this.switchNow(choice),
      () => this.switchNow(choice),
    );
    this.switching = next.catch(() => undefined);
    return next;
  }

  private closing = false;

  private async switchNow(choice: Choice): Promise<ServiceState> {
    if (this.closing) throw new Error('LabelDesk is closing.');
    const previous = this.conn;
    this.conn = undefined;
    await previous?.embedded?.close();
    this.catalogCache = undefined;
    this.state = blankState(choice, 'starting', 'Connecting…');
    this.o.events.emit('service.changed', this.state);
    try {
      this.conn =
        choice.kind === 'embedded'
          ? await this.connectEmbedded()
          : await this.connectHosted(choice);
      this.o.app.store.settings.set(CHOICE_SETTING, JSON.stringify(choice));
    } catch (err) {
      this.state = blankState(choice, 'offline', messageOf(err));
      this.o.events.emit('service.changed', this.state);
      throw err;
    }
    const embedded = this.conn.embedded;
    // The models load in the background; the state turns online when they are ready.
    if (embedded && embedded.engine.kind !== 'off') {
      const refresh = () => void this.refreshNow().catch(() => undefined);
      void embedded.engine.whenReady().then(refresh, refresh);
    }
    return this.refreshNow();
  }

  private async connectHosted(choice: { kind: 'hosted'; baseUrl: string }): Promise<Connection> {
    let conn: ServiceConnection | undefined;
    try {
      conn = await connectService(this.o.app, { service: choice.baseUrl, keyOptional: true });
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      this.o.notice(err.message);
    }
    return {
      choice,
      identity: choice.baseUrl,
      url: choice.baseUrl,
      client: conn?.hasKey ? conn.client : undefined,
      keyStore: conn?.keySource ?? 'none',
      standIn: false,
    };
  }

  private async connectEmbedded(): Promise<Connection> {
    // No Secret Service (a fresh Linux box): the embedded service still works, for this session.
    const conn = await connectService(this.o.app, { analysis: this.analysis }, (line) =>
      this.o.notice(line.replace(/^no OS keychain here/, 'No OS keychain here')),
    );
    return {
      choice: { kind: 'embedded' },
      identity: EMBEDDED_ACCOUNT,
      url: conn.baseUrl,
      client: conn.client,
      keyStore: conn.keySource,
      standIn: conn.standIn,
      ...(conn.embedded ? { embedded: conn.embedded } : {}),
    };
  }

  private rememberCatalog(c: Connection, catalog: Catalog): void {
    if (this.catalogCache?.version === catalog.version && this.catalogCache === catalog) return;
    this.catalogCache = catalog;
    const stored = this.o.app.store.catalog.latest(c.identity);
    const body = JSON.stringify(catalog);
    if (stored?.body !== body)
      this.o.app.store.catalog.saveSnapshot(c.identity, catalog.version, body, Date.now());
  }
}

function isReady(embedded: LocalService): boolean {
  return embedded.engine.kind === 'off' || embedded.engine.status().state === 'ready';
}

function engineOf(c: Connection, health: { ai: string | null }): string | null {
  if (c.embedded) {
    const models = c.standIn ? 'stand-in (no model)' : 'real models';
    return c.embedded.engine.kind === 'off' ? `${models}, loaded when a run starts` : models;
  }
  return health.ai;
}
