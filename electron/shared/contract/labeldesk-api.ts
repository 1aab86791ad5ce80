/**
 * The LabelDesk contract: every call the UI can make and every event it can receive, with zod
 * schemas for arguments, results and payloads. The Electron preload, the main process's IPC
 * registration, the browser-mode bridge, the renderer's `api` client and the application layer are
 * all derived from these two tables; nothing else declares a channel name or a payload shape.
 */
import { Empty, Id, Ok } from './common-schemas.js';
import {
  AddFolderInput,
  FolderIdInput,
  FolderIssues,
  FolderIssuesInput,
  FolderView,
  WatchInput,
} from './folder-schemas.js';
import {
  ClassCounts,
  ItemDetail,
  ItemIds,
  ItemIdsInput,
  ItemInput,
  LibraryFilter,
  LibraryPage,
  LibraryPageInput,
  MinScoreSetting,
} from './library-schemas.js';
import { ReviewNextInput, ReviewNextResult } from './review-next-schemas.js';
import {
  AutoLabel,
  AutoLabelInput,
  Estimate,
  RetryInput,
  RunProblems,
  RunRecord,
  RunScope,
  RunState,
  StartRunInput,
} from './run-schemas.js';
import {
  AddKeyframeInput,
  EditTrackInput,
  MergeTracksInput,
  ReanalyseInput,
  ReanalyseScope,
  RelabelTrackInput,
  ReviewBoxes,
  ReviewBoxesInput,
  ReviewBulkInput,
  ReviewEditInput,
  ReviewEditResult,
  ReviewEditsInput,
  ReviewEditsResult,
  SplitTrackInput,
} from './review-schemas.js';
import {
  AutoAcceptInput,
  AutoAcceptResult,
  EvaluateInput,
  LastAutoAccept,
  LastAutoAcceptInput,
  MarkReviewedInput,
  QualityReport,
  QualityTarget,
  QualityTargetInput,
  ReviewedInput,
  ReviewedState,
  SetQualityTargetInput,
  UndoAutoAcceptInput,
  UndoAutoAcceptResult,
} from './quality-schemas.js';
import { ExportProgress, ExportResult, ExportStartInput } from './export-schemas.js';
import { ImportInput, ImportResult } from './import-schemas.js';
import { Playable, PlayableInput } from './media-schemas.js';
import { AddModelInput, AddModelResult, ModelIdInput, OwnModel } from './model-schemas.js';
import {
  CallDeadlineInput,
  CallDeadlineView,
  HostedServiceInput,
  ServiceState,
  TrialInput,
} from './service-schemas.js';
import { BoxOrigin, CheckInput, CheckReport, ReadingInput } from './check-schemas.js';
import { ReviewBoxesPacked } from './packed-review-boxes.js';
import {
  TeamConflictsInput,
  TeamConflictView,
  TeamLinkInput,
  TeamMemberInput,
  TeamResolveInput,
  TeamResolveResult,
  TeamState,
} from './team-schemas.js';
import { TeamClaimInput, TeamClaimView } from './team-work-schemas.js';
import { TeamReportView } from './team-quality-schemas.js';
import { z } from './zod.js';

function call<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  transport: z.enum(['electron', 'browser', 'in-process']),
  /** Where the library lives (LABELDESK_HOME). */
  home: z.string(),
  /** Prefix of media URLs (`<mediaBase>thumb/ID`, `<mediaBase>file/ID`). */
  mediaBase: z.string(),
  /** A one-line notice for the user (e.g. no keychain: the embedded key lives in memory). */
  notices: z.array(z.string()),
  /** Whether a native folder picker exists (Electron) or paths are typed (browser mode). */
  nativeDialogs: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const CALLS = {
  'app.info': call(Empty, AppInfo),

  'service.state': call(Empty, ServiceState),
  'service.refresh': call(Empty, ServiceState),
  'service.useEmbedded': call(Empty, ServiceState),
  'service.useHosted': call(HostedServiceInput, ServiceState),
  'service.startTrial': call(TrialInput, ServiceState),
  'service.forgetKey': call(Empty, ServiceState),
  /** Reads catalog, health and GET /key (nothing spent) or, with a file, sends that one file. */
  'service.check': call(CheckInput, CheckReport),
  /** The current service's reading setting: whether a box's x,y is its corner or its centre. */
  'service.reading': call(Empty, ReadingInput),
  'service.setReading': call(ReadingInput, z.object({ boxOrigin: BoxOrigin })),
  /** The least time each call to the service is given; changeable here and with `labeldesk config`. */
  'service.callDeadline': call(Empty, CallDeadlineView),
  'service.setCallDeadline': call(CallDeadlineInput, CallDeadlineView),

  /** Own ONNX models of the embedded service; adding or removing one restarts it. */
  'models.list': call(Empty, z.array(OwnModel)),
  'models.add': call(AddModelInput, AddModelResult),
  'models.remove': call(ModelIdInput, Ok),

  'folders.list': call(Empty, z.array(FolderView)),
  'folders.add': call(AddFolderInput, FolderView),
  'folders.remove': call(FolderIdInput, Ok),
  'folders.setWatch': call(WatchInput, FolderView),
  'folders.rescan': call(FolderIdInput, FolderView),
  'folders.issues': call(FolderIssuesInput, FolderIssues),

  'runs.estimate': call(RunScope, Estimate),
  'runs.start': call(StartRunInput, RunState),
  'runs.current': call(Empty, RunState.nullable()),
  'runs.pause': call(Empty, RunState.nullable()),
  'runs.resume': call(Empty, RunState.nullable()),
  'runs.cancel': call(Empty, RunState.nullable()),
  'runs.problems': call(z.object({ solution: z.string().min(1).max(200) }), RunProblems),
  'runs.retry': call(RetryInput, RunState),
  'runs.history': call(
    z.object({ limit: z.number().int().min(1).max(500).default(50) }),
    z.array(RunRecord),
  ),
  'runs.autoLabel': call(Empty, AutoLabel),
  'runs.setAutoLabel': call(AutoLabelInput, AutoLabel),
  /** What re-analysing these items would spend (they are labelled, so runs.estimate says 0). */
  'runs.estimateReanalyse': call(ReanalyseScope, Estimate),
  /** Sends labelled items again (spends frames: ask first); corrections stay attached. */
  'runs.reanalyse': call(ReanalyseInput, RunState),

  'library.page': call(LibraryPageInput, LibraryPage),
  'library.ids': call(ItemIdsInput, ItemIds),
  'library.classCounts': call(LibraryFilter, ClassCounts),
  'library.item': call(ItemInput, ItemDetail),
  /** The minimum score boxes are shown and exported with by default (issue 27). */
  'library.minScore': call(Empty, MinScoreSetting),
  'library.setMinScore': call(MinScoreSetting, MinScoreSetting),

  /** The corrected boxes of an item (per frame for clips), each with the ids to edit it. */
  'review.boxes': call(ReviewBoxesInput, ReviewBoxes),
  /** The same, in columns (packed-review-boxes.ts): a long clip's boxes, small and quick to read. */
  'review.boxesPacked': call(ReviewBoxesInput, ReviewBoxesPacked),
  /** One edit, saved at once; answers the box after it and the edit that undoes it. */
  'review.edit': call(ReviewEditInput, ReviewEditResult),
  /** Several edits in one transaction (undo/redo of a bulk action). */
  'review.editMany': call(ReviewEditsInput, ReviewEditsResult),
  /** Accept (or reject) every box shown: by threshold, class filter and frame. */
  'review.acceptAll': call(ReviewBulkInput, ReviewEditsResult),
  'review.rejectAll': call(ReviewBulkInput, ReviewEditsResult),
  /** Relabels every box of one track of a clip. */
  'review.relabelTrack': call(RelabelTrackInput, ReviewEditsResult),
  /** Accepts, rejects or deletes every box of one track of a clip (one undo step). */
  'review.editTrack': call(EditTrackInput, ReviewEditsResult),
  /** Makes tracks of a clip one (a person's track: the tracker never splits or renumbers it). */
  'review.mergeTracks': call(MergeTracksInput, ReviewEditsResult),
  /** Cuts a track of a clip in two at a frame (both parts become a person's tracks). */
  'review.splitTrack': call(SplitTrackInput, ReviewEditsResult),
  /** A box drawn or moved on a frame becomes a keyframe of a track (interpolated in between). */
  'review.addKeyframe': call(AddKeyframeInput, ReviewEditsResult),

  /** Whether a person (or an import) declared the item reviewed for the solution. */
  'review.reviewed': call(ReviewedInput, ReviewedState),
  /** Marks the item reviewed (its shown boxes become ground truth) or takes the mark off. */
  'review.markReviewed': call(MarkReviewedInput, ReviewedState),
  /**
   * Marks the item reviewed and answers the file not reviewed yet with the most expected
   * corrections (the library's "Review priority" order), or null when none is left.
   */
  'review.next': call(ReviewNextInput, ReviewNextResult),

  /** The model measured on the reviewed items (in a worker thread: a big library takes seconds). */
  'quality.evaluate': call(EvaluateInput, QualityReport),
  /** The solution's stored target precision (95 % until a person sets one). */
  'quality.target': call(QualityTargetInput, QualityTarget),
  /** Stores the target precision; Review priority is computed again with it. */
  'quality.setTarget': call(SetQualityTargetInput, QualityTarget),
  /**
   * Accepts by rule, on files not reviewed yet, the model's pending boxes at or above their
   * class's threshold for the target precision (`apply: false` only counts them).
   */
  'quality.autoAccept': call(AutoAcceptInput, AutoAcceptResult),
  /** Undoes one auto-accept exactly; boxes a person has edited since stay as the person left them. */
  'quality.undoAutoAccept': call(UndoAutoAcceptInput, UndoAutoAcceptResult),
  'quality.lastAutoAccept': call(LastAutoAcceptInput, LastAutoAccept),

  /** How to play a clip: the original, or a proxy made in the background (progress events). */
  'media.playable': call(PlayableInput, Playable),

  /** Writes the corrected boxes of a scope to disk; answers when done (progress events meanwhile). */
  'export.start': call(ExportStartInput, ExportResult),
  /** Makes a label source's boxes the labels of the files it names (a person's accepted boxes). */
  'labels.import': call(ImportInput, ImportResult),

  /** The team project (README "Working as a team"): the Team screen and the shell's badge. */
  'team.state': call(Empty, TeamState),
  'team.link': call(TeamLinkInput, TeamState),
  'team.addMember': call(TeamMemberInput, TeamState),
  'team.removeMember': call(TeamMemberInput.pick({ role: true }), TeamState),
  'team.sync': call(Empty, TeamState),
  'team.leave': call(Empty, TeamState),
  'team.conflicts': call(TeamConflictsInput, z.array(TeamConflictView)),
  'team.resolve': call(TeamResolveInput, TeamResolveResult),
  /** Get work: claims files nobody else holds; Review next then walks this desktop's claim. */
  'team.claim': call(TeamClaimInput, TeamClaimView),
  /** A lead's: per member work, agreement, honeypot scores; the model on the reviewed set. */
  'team.report': call(Empty, TeamReportView),

  /** Native folder picker (Electron); browser mode answers `not_available`. */
  'host.pickFolders': call(Empty, z.object({ paths: z.array(z.string()) })),
  /** Native save dialog for an export target (Electron); browser mode answers `not_available`. */
  'host.pickSaveTarget': call(
    z.object({ folder: z.boolean(), defaultName: z.string().max(255).optional() }),
    z.object({ path: z.string().nullable() }),
  ),
  'host.showInFolder': call(z.object({ path: z.string().min(1).max(4096) }), Ok),
} as const;

export const EVENTS = {
  /** The current run changed (progress, phase). */
  'run.progress': RunState,
  /** Media were added, changed or labelled: views over these folders are stale. */
  'library.changed': z.object({ folderIds: z.array(Id), at: z.number() }),
  'folders.changed': z.array(FolderView),
  'service.changed': ServiceState,
  /** A run finished (the desktop shell shows a notification). */
  'run.finished': RunState,
  /** A clip's proxy advanced, finished or failed. */
  'media.proxyProgress': Playable,
  /** An export wrote more items (and once at the end). */
  'export.progress': ExportProgress,
  /** The team project's state changed (a sync, the hub gone or back, an edit waiting). */
  'team.changed': TeamState,
  /**
   * The desktop menu ran a keyboard registry command the page handles (Review next): sent by the
   * shell to the focused window only, never by the application.
   */
  'menu.command': z.object({ id: z.string().min(1).max(100) }),
} as const;

export type CallName = keyof typeof CALLS;
export type EventName = keyof typeof EVENTS;
/** What a caller passes (defaults may be left out). */
export type CallInput<N extends CallName> = z.input<(typeof CALLS)[N]['input']>;
/** What a handler receives, after validation and defaults. */
export type CallArgs<N extends CallName> = z.output<(typeof CALLS)[N]['input']>;
export type CallResult<N extends CallName> = z.output<(typeof CALLS)[N]['output']>;
export type EventPayload<N extends EventName> = z.output<(typeof EVENTS)[N]>;

/** The API as the renderer sees it, whatever carries it. */
export interface LabelDeskApi {
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** What the application layer implements: one handler per call. */
export type Handlers = {
  [N in CallName]: (args: CallArgs<N>) => Promise<CallResult<N>> | CallResult<N>;
};

export const CALL_NAMES = Object.keys(CALLS) as CallName[];
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(CALLS, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(EVENTS, name);
}
