/**
 * Twenty members editing at once, each a separate process with its own library and its own hub
 * connections (team-member-child.ts): a member's app is a process of its own, and a wake-up that
 * reaches 20 desktops makes 20 processes pull and apply at once, on this machine's cores, which
 * one process running 20 engines on one event loop would not show (it would serialise them).
 * Each member relabels a box of its own images every 1–3 s (random); every change's time from its
 * save on its desktop to its row on each of the 19 others is one sample.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromChild, ToChild } from './team-member-child.js';
import { PROJECT, type BenchHub } from './team-hub.js';
import { memberLibrary } from './team-libraries.js';
import { seededRandom } from './seeded-random.js';

export interface LatencyResult {
  members: number;
  edits: number;
  /** save → row, ms, one per change and receiving desktop. */
  samples: number[];
  /** Its parts: save → push begins, the push, push end → wake-up there, wake-up → row there. */
  parts: { wait: number[]; push: number[]; notify: number[]; apply: number[] };
  /** Changes that never reached a desktop by the end (should be 0). */
  missing: number;
}

interface Member {
  child: ChildProcess;
  name: string;
  post(m: ToChild): void;
}

function spawnMember(name: string, onMessage: (name: string, m: FromChild) => void): Member {
  const path = fileURLToPath(new URL('./team-member-child.js', import.meta.url));
  const child = fork(path, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (m: FromChild) => onMessage(name, m));
  return { child, name, post: (m) => child.send(m) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function teamLatency(
  hub: BenchHub,
  base: string,
  dir: string,
  options: { members: number; seconds: number; cursor: number },
): Promise<LatencyResult> {
  const saved = new Map<string, { by: string; at: number }>();
  const pushed = new Map<string, { start: number; end: number }>();
  const received = new Map<string, Map<string, { at: number; woke: number }>>();
  const ready = new Set<string>();
  const errors: string[] = [];
  const onMessage = (name: string, m: FromChild) => {
    if (m.type === 'ready') ready.add(name);
    else if (m.type === 'error') errors.push(`${name}: ${m.message}`);
    else if (m.type === 'saved') saved.set(m.label, { by: name, at: m.at });
    else if (m.type === 'pushed') {
      for (const label of m.labels) pushed.set(label, { start: m.start, end: m.end });
    } else
      for (const label of m.labels) {
        const by = received.get(label) ?? new Map<string, { at: number; woke: number }>();
        if (!by.has(name)) by.set(name, { at: m.at, woke: m.woke });
        received.set(label, by);
      }
  };
  const members: Member[] = [];
  try {
    for (let i = 0; i < options.members; i++) {
      const m = await hub.addMember(`m${i}`);
      const lib = await memberLibrary(base, dir, m, PROJECT);
      // Joined and in step: what they pull from here on is the others' new work.
      lib.store.team.moveCursor(options.cursor, Date.now());
      lib.store.close();
      const member = spawnMember(m.name, onMessage);
      member.post({
        type: 'start',
        file: lib.file,
        address: m.address,
        password: m.password,
        project: PROJECT,
      });
      members.push(member);
    }
    while (ready.size < members.length && errors.length === 0) await sleep(50);
    if (errors.length) throw new Error(errors.join('; '));
    const random = seededRandom(25);
    const end = performance.now() + options.seconds * 1000;
    let edits = 0;
    // Member i edits images 10i … 10i+9, a box not edited before each time.
    await Promise.all(
      members.map(async (m, i) => {
        for (let n = 0; ; n++) {
          await sleep(1000 + random() * 2000);
          if (performance.now() > end) return;
          m.post({ type: 'edit', image: i * 10 + (n % 10), label: `${m.name}-e${n}` });
          edits++;
        }
      }),
    );
    await sleep(3000);
    if (errors.length) throw new Error(errors.join('; '));
    const samples: number[] = [];
    const parts: LatencyResult['parts'] = { wait: [], push: [], notify: [], apply: [] };
    let missing = 0;
    for (const [label, s] of saved) {
      const by = received.get(label);
      const push = pushed.get(label);
      if (push) {
        parts.wait.push(push.start - s.at);
        parts.push.push(push.end - push.start);
      }
      for (const m of members) {
        if (m.name === s.by) continue;
        const got = by?.get(m.name);
        if (got === undefined) {
          missing++;
          continue;
        }
        samples.push(got.at - s.at);
        // A wake-up before the push ended was another's: this change came with the next sync.
        if (push && got.woke >= push.end) {
          parts.notify.push(got.woke - push.end);
          parts.apply.push(got.at - got.woke);
        }
      }
    }
    return { members: members.length, edits, samples, parts, missing };
  } finally {
    for (const m of members) m.post({ type: 'stop' });
    await Promise.all(
      members.map(
        (m) =>
          new Promise<void>((resolve) => {
            if (m.child.exitCode !== null) return resolve();
            const timer = setTimeout(() => (m.child.kill(), resolve()), 5000);
            m.child.once('exit', () => (clearTimeout(timer), resolve()));
          }),
      ),
    );
  }
}
