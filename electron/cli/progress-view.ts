/** Progress for people: a one-line bar on a terminal, plain lines otherwise (logs, pipes, CI). */
import type { RunProgress } from '../application/labelling-session.js';
import { terminalText } from './terminal-text.js';

const BAR = 24;

function bar(p: RunProgress): string {
  // Work is measured in frames: one long clip weighs as much as the photos of the same cost.
  const done =
    p.totalFrames > 0
      ? p.completedFrames / p.totalFrames
      : p.total === 0
        ? 1
        : p.completed / p.total;
  const full = Math.round(done * BAR);
  const eta = p.etaSec === null ? '' : ` · ETA ${formatSeconds(p.etaSec)}`;
  return `[${'#'.repeat(full)}${'-'.repeat(BAR - full)}] ${p.completed}/${p.total} files · ${p.framesSpent} frames spent · ${p.ratePerSec.toFixed(1)}/s${eta}`;
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.ceil(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.ceil(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export interface ProgressView {
  update(p: RunProgress): void;
  line(text: string): void;
  done(): void;
}

export function progressView(stream: NodeJS.WriteStream, enabled: boolean): ProgressView {
  if (!enabled) return { update: () => undefined, line: () => undefined, done: () => undefined };
  if (stream.isTTY) {
    let last = '';
    let lastAt = 0;
    return {
      update(p) {
        // Redraw at most ten times a second: a terminal is slower than a fast run.
        const now = Date.now();
        if (now - lastAt < 100 && p.completed !== p.total) return;
        lastAt = now;
        last = bar(p);
        stream.write(`\r\x1b[2K${last}`);
      },
      line(text) {
        stream.write(`\r\x1b[2K${terminalText(text)}\n${last}`);
      },
      done() {
        if (last) stream.write('\n');
      },
    };
  }
  let lastLine = 0;
  return {
    update(p) {
      const now = Date.now();
      if (now - lastLine < 2000 && p.completed !== p.total) return;
      lastLine = now;
      stream.write(
        `progress: ${p.completed}/${p.total} files, ${p.completedFrames}/${p.totalFrames} frames of work, ${p.framesSpent} frames spent, ${p.ratePerSec.toFixed(1)}/s\n`,
      );
    },
    line(text) {
      stream.write(`${terminalText(text)}\n`);
    },
    done: () => undefined,
  };
}
