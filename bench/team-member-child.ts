/**
 * One member's desktop of the team latency bench, in a process of its own (as each member's app
 * is): its library, LabelDesk's sync engine on it (LISTEN/NOTIFY wake-ups, the outbox checked as
 * the app would), and the review's service making the edits the parent asks for. It tells the
 * parent when each edit was saved here and when others' changes arrived here (after the apply's
 * commit: the rows are in the library by then). Times are performance.timeOrigin + now(), which
 * processes of one machine share.
 */
import { openLibraryStore } from '../electron/core/review/open-library-store.js';
import { HubClient } from '../electron/core/team/hub-client.js';
import { startSyncEngine } from '../electron/core/team/sync-engine.js';
import { openDatabase } from '../electron/node-lib/sqlite.js';
import { reviewOf, TEAM_SOLUTION } from './team-libraries.js';

export interface ChildStart {
  type: 'start';
  file: string;
  address: string;
  password: string;
  project: string;
}
export interface ChildEdit {
  type: 'edit';
  image: number;
  label: string;
}
export type ToChild = ChildStart | ChildEdit | { type: 'stop' };
export type FromChild =
  | { type: 'ready' }
  | { type: 'saved'; label: string; at: number }
  /** A push of these labels' changes: when it began (the outbox check found them) and ended. */
  | { type: 'pushed'; labels: string[]; start: number; end: number }
  /** Changes applied here at `at`, in a sync the hub's notification of `woke` started. */
  | { type: 'received'; labels: string[]; at: number; woke: number }
  | { type: 'error'; message: string };

const clock = () => performance.timeOrigin + performance.now();
const send = (m: FromChild) => process.send?.(m);

async function start(s: ChildStart): Promise<void> {
  const store = openLibraryStore(s.file);
  const reader = openDatabase(s.file);
  const arrived = reader.prepare<[number], { seq: number; label: string | null }>(
    `SELECT seq_local AS seq, json_extract(state, '$.label') AS label FROM team_changes
     WHERE own = 0 AND seq_local > ? ORDER BY seq_local`,
  );
  let seen = 0;
  const client = new HubClient({ address: s.address, password: s.password, project: s.project });
  // The engine's own client, timed at its three calls (what each part of a delivery takes).
  let woke = 0;
  const hub: Pick<HubClient, 'push' | 'pull' | 'listen'> = {
    listen: (wake) =>
      client.listen(() => {
        woke = clock();
        wake();
      }),
    pull: (cursor, limit) => client.pull(cursor, limit),
    push: async (changes) => {
      const start = clock();
      await client.push(changes);
      const labels = changes.map((c) => c.state?.label ?? '');
      send({ type: 'pushed', labels, start, end: clock() });
    },
  };
  const { review, mediaId } = reviewOf(store);
  const engine = startSyncEngine({
    store,
    hub,
    now: Date.now,
    onSync: () => {
      const at = clock();
      const rows = arrived.all(seen);
      if (rows.length === 0) return;
      seen = rows[rows.length - 1]?.seq ?? seen;
      send({ type: 'received', labels: rows.map((r) => r.label ?? ''), at, woke });
    },
    onError: (err) => send({ type: 'error', message: String(err) }),
  });
  await engine.started;
  process.on('message', (m: ToChild) => {
    if (m.type === 'edit') {
      const id = mediaId(m.image);
      const box = review.item(id, TEAM_SOLUTION, false).boxes.find((b) => b.correctionId === null);
      if (!box) return send({ type: 'error', message: `no unedited box left on image ${m.image}` });
      review.edit(id, TEAM_SOLUTION, {
        kind: 'relabel',
        box: { detectionId: box.detectionId, correctionId: null },
        label: m.label,
      });
      send({ type: 'saved', label: m.label, at: clock() });
    } else if (m.type === 'stop') {
      void engine
        .stop()
        .then(() => client.close())
        .finally(() => {
          store.close();
          reader.close();
          process.disconnect?.();
        });
    }
  });
  send({ type: 'ready' });
}

process.once('message', (m: ToChild) => {
  if (m.type !== 'start') return;
  start(m).catch((err: unknown) => {
    send({ type: 'error', message: String(err) });
    process.exitCode = 1;
  });
});
