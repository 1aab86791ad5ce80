/**
 * The application layer: opens the library, connects the service, and implements every call of
 * the contract over core. Electron IPC, the browser bridge and the CLI all serve this one object.
 */
import { join } from 'node:path';
import { LibraryViewClient } from '../core/library-view/library-view-client.js';
import { buildVersion } from '../node-lib/app-paths.js';
import { APP_NAME } from '../shared/app-info.js';
import { LabelDeskError, type Handlers } from '../shared/contract/index.js';
import { openAppContext } from './app-context.js';
import type { Application, ApplicationOptions } from './application-types.js';
import { AppEvents } from './app-events.js';
import { AutoLabeller } from './auto-label.js';
import { callDeadlineOf, setCallDeadline } from './call-deadline.js';
import { checkHandlers } from './check-handlers.js';
import { FolderManager } from './folder-manager.js';
import { libraryHandlers } from './library-handlers.js';
import { refuseWrites } from './read-only-home.js';
import { reviewHandlers } from './review-handlers.js';
import { ReviewPriorityCache, reviewNextHandlers } from './review-next.js';
import { OwnClaim, teamWorkHandlers } from './team-work.js';
import { trackHandlers } from './track-handlers.js';
import { ClipTracks } from './tracking/clip-tracks.js';
import { qualityHandlers } from './evaluation/quality-handlers.js';
import { exportHandlers } from './export-handlers.js';
import { afterFirstScreen } from './first-screen.js';
import { importHandlers } from './import-handlers.js';
import { keyframeHandlers } from './keyframe-handlers.js';
import { mediaHandlers, toPlayable } from './media-handlers.js';
import { createMediaSource } from './media-source.js';
import { ProxyMaker } from './proxy-maker.js';
import { RunController } from './run-controller.js';
import { modelHandlers } from './model-handlers.js';
import { ServiceHub } from './service-hub.js';
import { TeamSession } from './team-session.js';
import { teamQuality } from './team-quality.js';

const SOLUTION_SETTING = 'app.solution';
const CREDITS_REFRESH_MS = 3000;

export async function createApplication(options: ApplicationOptions): Promise<Application> {
  const log = options.log ?? (() => undefined);
  const nativeBinding = options.sqliteNativeBinding;
  const context = openAppContext(options.env ?? process.env, { nativeBinding });
  const { home, store } = context;
  // Browsing runs on its own thread and connection: never behind a run's writes or the UI's calls.
  const viewClient = new LibraryViewClient(store.file, nativeBinding);
  const view = viewClient.q;
  const events = new AppEvents(log);
  const notices = new Set<string>();
  const notice = (line: string) => {
    if (!notices.has(line)) log(line);
    notices.add(line);
  };
  const hub = new ServiceHub({ app: context, events, notice, log });
  const solution = () => store.settings.get(SOLUTION_SETTING) ?? 'objects';
  const libraryChanged = events.throttled('library.changed', 250);
  // Declared before the folders it waits on; resolved through them once they exist.
  let filesRead = (): Promise<void> => Promise.resolve();
  const runs = new RunController(
    store,
    hub,
    events,
    () => libraryChanged({ folderIds: [], at: Date.now() }),
    () => filesRead(),
    home,
    view,
  );
  const auto = new AutoLabeller(store, runs, log);
  const folders = new FolderManager({
    store,
    view,
    events,
    solution,
    // A read-only library labels nothing by itself: its results could not be kept.
    onArrived: (_folderId, ids) => (context.readOnly ? undefined : auto.offer(ids)),
    log,
  });
  filesRead = () => folders.idle();
  // The credits shown move while a run spends them (a refresh at most every few seconds).
  let lastCreditsRefresh = 0;
  events.on((name, payload) => {
    if (name === 'run.progress' && Date.now() - lastCreditsRefresh > CREDITS_REFRESH_MS) {
      lastCreditsRefresh = Date.now();
      void hub.refresh().catch(() => undefined);
    }
    if (name === 'run.finished') {
      auto.onRunFinished(payload as Parameters<AutoLabeller['onRunFinished']>[0]);
      // A run ended by quitting finishes as the view's threads stop: no counts to send then.
      void folders.list().then(
        (list) => events.emit('folders.changed', list),
        () => undefined,
      );
    }
  });
  // Its edits' counts reach the badge: one cheap local read per library change.
  const teamSession = new TeamSession(context, events, log);
  const ownClaim = new OwnClaim();
  events.on((name) => name === 'library.changed' && teamSession.libraryChanged());
  const host = options.host ?? {};
  const rememberSolution = (id: string) => store.settings.set(SOLUTION_SETTING, id);
  const proxies = new ProxyMaker(context.workHome, (media, state) =>
    events.emit('media.proxyProgress', toPlayable(media, state, options.mediaBase)),
  );
  const exportProgress = events.throttled('export.progress', 100);
  const priority = new ReviewPriorityCache(store, view, nativeBinding);
  /** A person's edit changed an item: its folder's views refresh. */
  const reviewed = (m: { folderId: number }) =>
    events.emit('library.changed', { folderIds: [m.folderId], at: Date.now() });
  const clipTracks = new ClipTracks(store, nativeBinding, join(context.workHome, 'tracks'));
  const exports = exportHandlers({
    store,
    idsOf: (filter) =>
      view.ids({ filter, sort: 'path', descending: false, offset: 0, limit: 200_000 }),
    classesOf: (id) => hub.current().solutions.find((s) => s.id === id)?.classes,
    progress: (p) => (p.done ? events.emit('export.progress', p) : exportProgress(p)),
  });

  const handlers: Handlers = {
    'app.info': () => ({
      name: APP_NAME,
      version: buildVersion(),
      transport: options.transport,
      home,
      mediaBase: options.mediaBase,
      notices: [...notices],
      nativeDialogs: host.pickFolders !== undefined,
    }),
    'service.state': () => hub.current(),
    'service.refresh': () => hub.refresh(),
    'service.useEmbedded': () => hub.useEmbedded(),
    'service.useHosted': ({ baseUrl, apiKey }) => hub.useHosted(baseUrl, apiKey),
    'service.startTrial': ({ baseUrl }) => hub.startTrial(baseUrl),
    'service.forgetKey': () => hub.forgetKey(),
    ...checkHandlers(store, hub, runs, home, () => store.rawAnswers.countUnread()),
    ...modelHandlers(
      context.workHome,
      () => hub.restartEmbedded(),
      () => runs.isBusy(),
    ),
    'service.callDeadline': () => callDeadlineOf(store, context.env),
    'service.setCallDeadline': ({ seconds }) => setCallDeadline(store, context.env, seconds),

    'folders.list': () => folders.list(),
    'folders.add': ({ path }) => folders.add(path),
    'folders.remove': async ({ id }) => {
      await folders.remove(id);
      return { ok: true as const };
    },
    'folders.setWatch': ({ id, watching, polling, autoLabel }) =>
      folders.setWatch(id, {
        watching,
        ...(polling !== undefined ? { polling } : {}),
        ...(autoLabel !== undefined ? { autoLabel } : {}),
      }),
    'folders.rescan': ({ id }) => folders.rescan(id),
    'folders.issues': ({ id, limit }) => folders.issues(id, limit),

    'runs.estimate': (scope) => runs.estimate(scope),
    'runs.start': (request) => {
      rememberSolution(request.solution);
      return runs.start(request);
    },
    'runs.current': () => runs.current(),
    'runs.pause': () => runs.pause(),
    'runs.resume': () => runs.resume(),
    'runs.cancel': () => runs.cancel(),
    'runs.problems': async ({ solution: id }) => {
      const rows = await view.problems(id, 1000);
      const pick = (state: 'failed' | 'uncertain') =>
        rows
          .filter((r) => r.state === state)
          .map((r) => ({ mediaId: r.mediaId, path: r.path, code: r.code, message: r.message }));
      return { failed: pick('failed'), uncertain: pick('uncertain') };
    },
    'runs.retry': ({ solution: id, mediaIds }) =>
      runs.start({
        solution: id,
        mediaIds,
        budget: null,
        hourBudget: null,
        retryUncertain: true,
        retryRefused: true,
        // A Retry is a person's explicit request for these very files.
        acceptUnknownCost: true,
      }),
    'runs.history': ({ limit }) => view.runs(limit),
    'runs.autoLabel': () => auto.get(),
    'runs.setAutoLabel': (next) => auto.set(next),

    ...libraryHandlers(store, view, (id) => priority.fresh(id), clipTracks.cache),
    ...reviewHandlers(store, runs, reviewed, clipTracks),
    ...reviewNextHandlers(store, view, priority, reviewed, ownClaim),
    ...trackHandlers(store, reviewed, clipTracks),
    ...keyframeHandlers(store, reviewed, clipTracks),
    ...qualityHandlers(store, reviewed, nativeBinding, () =>
      libraryChanged({ folderIds: [], at: Date.now() }),
    ),

    ...mediaHandlers((id) => store.media.byId(id), proxies, options.mediaBase),
    ...exports.handlers,

    ...importHandlers(store, () => libraryChanged({ folderIds: [], at: Date.now() })),

    'host.pickFolders': async () => {
      if (!host.pickFolders) {
        throw new LabelDeskError(
          'not_available',
          'Folder dialogs need the desktop app: type the path.',
        );
      }
      return { paths: await host.pickFolders() };
    },
    'host.pickSaveTarget': async ({ folder, defaultName }) => {
      if (!host.pickSaveTarget) {
        throw new LabelDeskError(
          'not_available',
          'Save dialogs need the desktop app: type the path.',
        );
      }
      return { path: await host.pickSaveTarget(folder, defaultName) };
    },
    'team.state': () => teamSession.current(),
    'team.link': (o) => teamSession.link(o),
    'team.addMember': ({ role, as }) => teamSession.addMember(role, as),
    'team.removeMember': ({ role }) => teamSession.removeMember(role),
    'team.sync': () => teamSession.sync(),
    'team.leave': () => teamSession.leave(),
    'team.conflicts': ({ contentHash, mediaId }) => teamSession.conflicts(contentHash, mediaId),
    'team.resolve': ({ ids, all, keep }) => teamSession.resolve(ids, all, keep),
    ...teamWorkHandlers(context, ownClaim),
    'team.report': () => teamQuality(context).report(),

    'host.showInFolder': ({ path }) => {
      if (!host.showInFolder) {
        throw new LabelDeskError('not_available', 'Showing files needs the desktop app.');
      }
      host.showInFolder(path);
      return { ok: true as const };
    },
  };

  // The window comes first: the service starts, and the folders are rescanned and watched, in
  // the background, so a 100k-item library paints at once and catches up on changes after.
  const background = afterFirstScreen(handlers, {
    rescan: () => void folders.start(),
    startService: () =>
      void hub.start().catch((err: unknown) => log(`service: ${(err as Error).message}`)),
    holdTotals: (until) => viewClient.holdTotals(until),
  });
  if (!context.readOnly) teamSession.start();

  return {
    handlers: context.readOnly ? refuseWrites(handlers, home, context.readOnly) : handlers,
    onEvent: (listener) => events.on(listener),
    media: createMediaSource(store, context.workHome, proxies),
    async close() {
      background.cancel();
      // Everything under way is told to stop at once; the service and the library close last.
      await Promise.all([
        proxies.close(),
        runs.close(),
        folders.close(),
        exports.close(),
        clipTracks.close(),
        teamSession.close(),
      ]);
      await hub.close();
      await viewClient.close();
      context.close();
    },
  };
}
