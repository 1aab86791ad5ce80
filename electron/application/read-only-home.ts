/**
 * A library on a read-only share or in a read-only home is still browsed, planned and exported:
 * SQLite cannot open a WAL database where it cannot create its `-shm` file, so such a library is
 * read from a private copy in the temp folder (the database and the embedded service's small
 * data, never the thumbnails or proxies, which are made again there on demand). Whatever would
 * be written to the library is refused with `readOnlyRefusal`, so nothing a person does is lost
 * silently with the copy.
 */
import { accessSync, constants, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Handlers } from '../shared/contract/index.js';
import { LabelDeskError } from '../shared/contract/labeldesk-error.js';

/** Why `home` cannot be written, in words, or null when it can. */
export function readOnlyReason(home: string): string | null {
  try {
    accessSync(home, constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return 'it is on a read-only file system';
    if (code === 'EACCES' || code === 'EPERM') return 'this user may not write to it';
    return `it cannot be written (${code ?? String(err)})`;
  }
}

const COPIED = ['library.sqlite', 'library.sqlite-wal', 'service'];

/** A private, writable copy of what a session needs from `home`; `remove` deletes it. */
export function privateCopy(home: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'labeldesk-read-only-'));
  for (const name of COPIED) {
    const from = join(home, name);
    if (!existsSync(from)) continue;
    cpSync(from, join(dir, name), {
      recursive: true,
      // A clip being uploaded at the time the share was made read-only is not needed to read.
      filter: (src) => !src.includes(`${join(home, 'service', 'uploads')}`),
    });
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The sentence a write gets when the library is read-only. */
export function readOnlyRefusal(home: string, why: string, what: string): string {
  return `The library in ${home} is read-only (${why}), so ${what} cannot be saved; plan, export, status and browsing still work.`;
}

/**
 * Every call, and what it would have saved in the library (null: it only reads, or writes
 * elsewhere). Exhaustive on purpose: a new call does not compile until it is classified here.
 */
const WRITES: Record<keyof Handlers, string | null> = {
  'app.info': null,
  'service.state': null,
  'service.refresh': null,
  'service.useEmbedded': 'the service choice',
  'service.useHosted': 'the service choice',
  'service.startTrial': 'the service choice',
  'service.forgetKey': null,
  'service.check': null,
  'service.reading': null,
  'service.setReading': "the service's reading",
  'models.list': null,
  'models.add': 'an own model',
  'models.remove': 'removing an own model',
  'service.callDeadline': null,
  'service.setCallDeadline': 'the call deadline',
  'folders.list': null,
  'folders.add': 'a new folder',
  'folders.remove': 'removing a folder',
  'folders.setWatch': "a folder's settings",
  'folders.rescan': 'a rescan',
  'folders.issues': null,
  'runs.estimate': null,
  'runs.start': 'labelling results',
  'runs.current': null,
  'runs.pause': null,
  'runs.resume': null,
  'runs.cancel': null,
  'runs.problems': null,
  'runs.retry': 'labelling results',
  'runs.history': null,
  'runs.autoLabel': null,
  'runs.setAutoLabel': 'auto-label settings',
  'runs.estimateReanalyse': null,
  'runs.reanalyse': 'labelling results',
  'library.page': null,
  'library.ids': null,
  'library.classCounts': null,
  'library.item': null,
  'library.minScore': null,
  'library.setMinScore': 'the minimum score',
  'review.boxes': null,
  'review.boxesPacked': null,
  'review.edit': 'a review edit',
  'review.editMany': 'review edits',
  'review.acceptAll': 'review edits',
  'review.rejectAll': 'review edits',
  'review.relabelTrack': 'review edits',
  'review.editTrack': 'review edits',
  'review.mergeTracks': 'review edits',
  'review.splitTrack': 'review edits',
  'review.addKeyframe': 'a keyframe',
  'review.reviewed': null,
  'review.markReviewed': 'reviewed marks',
  'quality.evaluate': null,
  'quality.target': null,
  'quality.setTarget': 'the target precision',
  'review.next': 'reviewed marks',
  'quality.autoAccept': 'boxes accepted by rule',
  'quality.undoAutoAccept': 'undoing an auto-accept',
  'quality.lastAutoAccept': null,
  'media.playable': null,
  'export.start': null,
  'labels.import': 'imported labels',
  'team.state': null,
  'team.link': 'joining a team project',
  'team.addMember': null,
  'team.removeMember': null,
  'team.sync': "the team's changes",
  'team.leave': 'leaving a team project',
  'team.conflicts': null,
  'team.resolve': 'settling conflicts',
  'team.claim': null,
  'team.report': null,
  'host.pickFolders': null,
  'host.pickSaveTarget': null,
  'host.showInFolder': null,
};

/** The handlers with every library write refused in one sentence (code `read_only_library`). */
export function refuseWrites(handlers: Handlers, home: string, why: string): Handlers {
  const guarded: Record<string, unknown> = { ...handlers };
  for (const [name, what] of Object.entries(WRITES)) {
    if (what === null) continue;
    guarded[name] = async () => {
      throw new LabelDeskError('read_only_library', readOnlyRefusal(home, why, what));
    };
  }
  return guarded as unknown as Handlers;
}
