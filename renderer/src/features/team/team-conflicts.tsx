/**
 * The open conflicts: both versions of each box, who made them and when; a person keeps one, a
 * lead settles many at once (keep mine, theirs, or one member's).
 */
import { useState } from 'react';
import type { TeamConflictView, TeamState } from '@shared/contract/index.js';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorNote } from '../../ui/error-note.js';

const when = (ms: number) => new Date(ms).toLocaleString();

function versionText(v: TeamConflictView['versions'][number]): string {
  return v.deleted ? 'deleted' : `${v.label ?? '?'} (${v.review})`;
}

export function TeamConflicts({ state }: { state: TeamState }) {
  const { data, error } = useCall('team.conflicts', {});
  const resolve = useCallMutation('team.resolve', ['team.conflicts', 'team.state', 'review.boxes']);
  const [keep, setKeep] = useState('theirs');
  if (error) return <ErrorNote error={error} />;
  if (!data) return null;
  if (data.length === 0) {
    return (
      <section aria-label="Conflicts">
        <EmptyState title="No conflicts">Boxes two members changed at once show here.</EmptyState>
      </section>
    );
  }
  const members = [...new Set(data.flatMap((c) => c.versions.map((v) => v.member)))].sort();
  return (
    <section aria-label="Conflicts">
      <h3>
        {data.length} conflict{data.length === 1 ? '' : 's'}
      </h3>
      {state.role === 'lead' ? (
        <div className="actions">
          <label className="field">
            <span>Keep</span>
            <select value={keep} onChange={(e) => setKeep(e.target.value)}>
              <option value="mine">mine</option>
              <option value="theirs">theirs</option>
              {members.map((m) => (
                <option key={m} value={m}>
                  {m}'s
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={resolve.isPending}
            onClick={() => resolve.mutate({ all: true, keep })}
          >
            Settle all
          </button>
        </div>
      ) : null}
      {resolve.isError ? <ErrorNote error={resolve.error} /> : null}
      {resolve.data && resolve.data.skipped.length > 0 ? (
        <p role="status">
          {resolve.data.resolved.length} settled; {resolve.data.skipped.length} not:{' '}
          {resolve.data.skipped[0]?.reason}.
        </p>
      ) : null}
      <ul className="team-conflicts">
        {data.map((c) => (
          <li key={c.id}>
            <div className="conflict-where">
              <code>{c.id}</code> {c.path ?? c.contentHash.slice(0, 16)} ·{' '}
              {c.keyframe ? `keyframe at clip frame ${c.frameIndex}` : `frame ${c.frameIndex}`}
            </div>
            <ul>
              {c.versions.map((v) => (
                <li key={v.change}>
                  <strong>{v.mine ? `${v.member} (you)` : v.member}</strong>: {versionText(v)},{' '}
                  {when(v.at)}{' '}
                  {c.canResolve ? (
                    <button
                      type="button"
                      disabled={resolve.isPending}
                      onClick={() =>
                        resolve.mutate({ ids: [c.id], keep: v.mine ? 'mine' : v.member })
                      }
                    >
                      Keep this
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
