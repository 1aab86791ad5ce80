/** Edits saved in the background: an export waits for every one, including those queued meanwhile. */
import { describe, expect, it } from 'vitest';
import { editsSaved, trackSaving } from '../../../renderer/src/api/saving-edits.js';

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (e: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('edits still being saved', () => {
  it('resolves at once with nothing saving', async () => {
    await expect(editsSaved()).resolves.toBeUndefined();
  });

  it('waits for every tracked edit, one that fails included, and for edits tracked while waiting', async () => {
    const first = deferred();
    const failing = deferred();
    const later = deferred();
    trackSaving(first.promise);
    trackSaving(failing.promise);
    let saved = false;
    const waiting = editsSaved().then(() => (saved = true));

    failing.reject(new Error('unknown_box'));
    trackSaving(later.promise);
    first.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(saved).toBe(false);

    later.resolve();
    await waiting;
    expect(saved).toBe(true);
  });
});
