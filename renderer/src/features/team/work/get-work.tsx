/**
 * "Get work" (issue 26 §2): claims files nobody else in the team holds, best first, and opens
 * the review on the first; Review next (Enter) then walks this claim. The hub decides who gets
 * what; a lease keeps the files while one works.
 */
import { useState } from 'react';
import type { TeamClaimView } from '@shared/contract/index.js';
import { useCallMutation } from '../../../api/use-call.js';
import { useAppState } from '../../../app/app-state.js';
import { ErrorNote } from '../../../ui/error-note.js';
import { plural } from '../../../ui/format.js';
import { useLibraryState } from '../../library/library-state.js';

const minutes = (seconds: number) => Math.round(seconds / 6) / 10;

function claimNote(c: TeamClaimView): string {
  const missing = c.holding.filter((f) => f.mediaId === null).length;
  return [
    `Claimed ${plural(c.claimed.length, 'file')}; you hold ${c.holding.length}, each for ${minutes(c.leaseSeconds)} idle ${minutes(c.leaseSeconds) === 1 ? 'minute' : 'minutes'}.`,
    missing > 0 ? `${missing} of them are not in this library: add the project folder.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function GetWork() {
  const [count, setCount] = useState(20);
  const claim = useCallMutation('team.claim', ['team.state']);
  const { go } = useAppState();
  const { setOpenId } = useLibraryState();
  const open = (c: TeamClaimView) => {
    const first = c.holding.find((f) => f.mediaId !== null);
    if (first?.mediaId == null) return;
    setOpenId(first.mediaId);
    go('library');
  };
  return (
    <section className="form-card" aria-label="Work">
      <h3>Work</h3>
      <p className="hint">
        Get files nobody else holds, best first; Review next walks them. Unused, they go back to the
        team when your lease ends.
      </p>
      <label className="field">
        <span>Files to claim</span>
        <input
          type="number"
          min={1}
          max={500}
          value={count}
          onChange={(e) => setCount(Math.max(1, Math.min(500, Number(e.target.value) || 1)))}
        />
      </label>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={claim.isPending}
          onClick={() => claim.mutate({ count }, { onSuccess: open })}
        >
          {claim.isPending ? 'Claiming…' : 'Get work'}
        </button>
      </div>
      {claim.data ? <p role="status">{claimNote(claim.data)}</p> : null}
      {claim.isError ? <ErrorNote error={claim.error} /> : null}
    </section>
  );
}
