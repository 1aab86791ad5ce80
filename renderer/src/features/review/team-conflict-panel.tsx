/**
 * The `Team conflict` panel beside the Boxes list: the versions of the selected box (or of the
 * item's first box in conflict) that members made without seeing each other's, who made each and
 * when; `Shift+V` chooses one, `V` or its button keeps it (README "Working as a team").
 */
import { ErrorNote } from '../../ui/error-note.js';
import '../../styles/team-conflict.css';
import { versionWhat, versionWho, type TeamConflicts } from './use-team-conflicts.js';

const when = (ms: number) => new Date(ms).toLocaleString();

export function TeamConflictPanel({
  team,
  selectedKey,
}: {
  team: TeamConflicts;
  selectedKey: string | undefined;
}) {
  const c = team.of(selectedKey);
  if (!c) return null;
  const chosen = team.chosen(c);
  const others = [...new Set(c.versions.filter((v) => !v.mine).map((v) => v.member))];
  return (
    <section className="team-conflict-panel" aria-label="Team conflict">
      <h2>Team conflict</h2>
      <p>
        {others.length > 0 ? others.join(', ') : 'Another desktop'} changed this box too.{' '}
        {c.canResolve ? 'Shift+V chooses a version, V keeps it.' : 'A lead can settle it.'}
      </p>
      <ul>
        {c.versions.map((v, i) => (
          <li key={v.change} aria-current={i === chosen ? 'true' : undefined}>
            <strong>{versionWho(v)}</strong>: {versionWhat(v)}{' '}
            <span className="muted">{when(v.at)}</span>
            {c.canResolve ? (
              <button
                type="button"
                aria-keyshortcuts={i === chosen ? 'V' : undefined}
                disabled={team.busy}
                onClick={() => team.keep(selectedKey, i)}
              >
                {`Keep ${v.mine ? 'my' : `${v.member}'s`} version`}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {team.error ? <ErrorNote error={team.error} /> : null}
    </section>
  );
}
