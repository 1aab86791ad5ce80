/**
 * The Team screen: the same as `labeldesk team`: create or join, the project's status, sync now,
 * members (a lead adds and removes them), the open conflicts, leave.
 */
import { useState, type FormEvent } from 'react';
import type { TeamState } from '@shared/contract/index.js';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { teamBadgeText } from './team-badge.js';
import { TeamConflicts } from './team-conflicts.js';
import { TeamLinkForm } from './team-link-form.js';
import { GetWork } from './work/get-work.js';
import { TeamReportPanel } from './lead/team-report-panel.js';

const when = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toLocaleString());
const known = (n: number | null) => (n === null ? '—' : String(n));

function TeamStatusCard({ state }: { state: TeamState }) {
  const sync = useCallMutation('team.sync', ['team.state', 'team.conflicts']);
  const leave = useCallMutation('team.leave', ['team.state', 'team.conflicts']);
  const rows: [string, string][] = [
    ['Project', state.project ?? ''],
    ['Hub', state.hub ?? ''],
    ['Folder', state.folder ?? ''],
    ['Member', `${state.member ?? ''} (${state.role ?? ''})`],
    [
      'Hub reachable',
      state.online ? 'yes' : `no${state.offlineReason ? ` · ${state.offlineReason}` : ''}`,
    ],
    ['Changes to send', String(state.pendingPush)],
    ['Changes to receive', known(state.pendingPull)],
    ['Last sync', when(state.lastSyncAt)],
    ['Conflicts', String(state.conflicts)],
    ['Files', known(state.files)],
    ['Labelled files', known(state.labelledFiles)],
  ];
  return (
    <section className="form-card" aria-label="Team status">
      <h3 className="team-project-name">
        {state.project} · {teamBadgeText(state).text}
      </h3>
      <dl className="team-status">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {state.error ? <ErrorNote error={state.error} title="Syncing stopped" /> : null}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={sync.isPending}
          onClick={() => sync.mutate({})}
        >
          {sync.isPending ? 'Syncing…' : 'Sync now'}
        </button>
        <button
          type="button"
          disabled={leave.isPending}
          onClick={() => {
            if (
              window.confirm(`Leave project ${state.project ?? ''} on this computer? Labels stay.`)
            )
              leave.mutate({});
          }}
        >
          Leave project
        </button>
      </div>
      {sync.isError ? <ErrorNote error={sync.error} /> : null}
      {leave.isError ? <ErrorNote error={leave.error} /> : null}
    </section>
  );
}

function TeamMembers() {
  const [role, setRole] = useState('');
  const [as, setAs] = useState<'lead' | 'annotator'>('annotator');
  const add = useCallMutation('team.addMember', ['team.state']);
  const remove = useCallMutation('team.removeMember', ['team.state']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate({ role: role.trim(), as });
  };
  return (
    <form className="form-card team-members" aria-label="Members" onSubmit={submit}>
      <h3>Members</h3>
      <p className="hint">
        Whoever runs the hub creates each PostgreSQL role; here a lead grants or revokes its access.
      </p>
      <label className="field">
        <span>PostgreSQL role</span>
        <input required value={role} onChange={(e) => setRole(e.target.value)} />
      </label>
      <label className="field">
        <span>As</span>
        <select value={as} onChange={(e) => setAs(e.target.value as 'lead' | 'annotator')}>
          <option value="annotator">annotator</option>
          <option value="lead">lead</option>
        </select>
      </label>
      <div className="actions">
        <button type="submit" disabled={add.isPending || !role.trim()}>
          Add member
        </button>
        <button
          type="button"
          disabled={remove.isPending || !role.trim()}
          onClick={() => remove.mutate({ role: role.trim() })}
        >
          Remove member
        </button>
      </div>
      {add.isSuccess ? <p role="status">Added {add.variables.role}.</p> : null}
      {remove.isSuccess ? <p role="status">Removed {remove.variables.role}.</p> : null}
      {add.isError ? <ErrorNote error={add.error} /> : null}
      {remove.isError ? <ErrorNote error={remove.error} /> : null}
    </form>
  );
}

export function TeamScreen() {
  const { data, error } = useCall('team.state', {});
  if (error) return <ErrorNote error={error} />;
  if (!data) return null;
  return (
    <div className="screen team-screen">
      <h2>Team</h2>
      {data.project === null ? (
        <TeamLinkForm />
      ) : (
        <>
          <TeamStatusCard state={data} />
          <GetWork />
          <TeamConflicts state={data} />
          {data.role === 'lead' ? <TeamMembers /> : null}
          {data.role === 'lead' ? <TeamReportPanel /> : null}
        </>
      )}
    </div>
  );
}
