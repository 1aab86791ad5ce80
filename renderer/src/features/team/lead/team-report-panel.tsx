/**
 * The lead's view of the team (`labeldesk team report`): per member files reviewed, boxes changed,
 * time active, agreement on overlap files, honeypot scores and frames spent; agreement per pair
 * and class; the model's quality on the team's reviewed set. Read when the lead asks for it (a
 * report reads the whole project in the hub), with a button reached by Tab like every control.
 */
import type { TeamReportView } from '@shared/contract/index.js';
import { useCall } from '../../../api/use-call.js';
import { ErrorNote } from '../../../ui/error-note.js';
import { plural } from '../../../ui/format.js';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const num = (v: number | null) => (v === null ? '—' : v.toFixed(3));
const minutes = (s: number) => `${Math.round(s / 60)} min`;

function MembersTable({ report }: { report: TeamReportView }) {
  return (
    <table className="data-table" aria-label="Members">
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col">Files reviewed</th>
          <th scope="col">Boxes changed</th>
          <th scope="col">Time active</th>
          <th scope="col">Agreement F1</th>
          <th scope="col">Mean IoU</th>
          <th scope="col">Honeypot precision</th>
          <th scope="col">Honeypot recall</th>
          <th scope="col">Frames spent</th>
        </tr>
      </thead>
      <tbody>
        {report.members.map((m) => (
          <tr key={m.member}>
            <th scope="row">
              {m.member} ({m.role})
            </th>
            <td>{m.filesReviewed}</td>
            <td>{m.boxesChanged}</td>
            <td>{minutes(m.activeSeconds)}</td>
            <td>{num(m.agreement.f1)}</td>
            <td>{num(m.agreement.meanIou)}</td>
            <td>
              {pct(m.honeypots.precision)}
              {m.honeypots.seen > 0 ? ` (${m.honeypots.seen} not blind, left out)` : ''}
            </td>
            <td>{pct(m.honeypots.recall)}</td>
            <td>{m.framesSpent}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PairsTable({ report }: { report: TeamReportView }) {
  if (report.pairs.length === 0) {
    return <p className="hint">No overlap file has been reviewed by two members yet.</p>;
  }
  return (
    <table className="data-table" aria-label="Agreement per pair and class">
      <thead>
        <tr>
          <th scope="col">Pair</th>
          <th scope="col">Class</th>
          <th scope="col">Boxes</th>
          <th scope="col">Matched</th>
          <th scope="col">F1</th>
          <th scope="col">Mean IoU</th>
        </tr>
      </thead>
      <tbody>
        {report.pairs.flatMap((p) =>
          [{ label: 'all classes', ...p.overall }, ...p.classes].map((c) => (
            <tr key={`${p.members.join('&')} ${c.label}`}>
              <td>{p.members.join(' & ')}</td>
              <td>{c.label}</td>
              <td>
                {c.a} / {c.b}
              </td>
              <td>{c.matched}</td>
              <td>{num(c.f1)}</td>
              <td>{num(c.meanIou)}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

export function TeamReportPanel() {
  const { data, error, refetch, isFetching } = useCall('team.report', {}, { enabled: false });
  return (
    <section className="form-card" aria-label="Team report">
      <h3>Team report</h3>
      <div className="actions">
        <button type="button" disabled={isFetching} onClick={() => void refetch()}>
          {isFetching ? 'Reading the hub…' : data ? 'Refresh report' : 'Show report'}
        </button>
      </div>
      {error ? <ErrorNote error={error} /> : null}
      {data ? (
        <>
          <p>
            Overlap {pct(data.overlapShare)}: {plural(data.overlapFiles, 'file')},{' '}
            {data.settledFiles} settled · {plural(data.honeypotFiles, 'honeypot')}
          </p>
          <MembersTable report={data} />
          <PairsTable report={data} />
          <p>
            The model on {plural(data.model.files, 'reviewed file')}: precision{' '}
            {pct(data.model.precision)}, recall {pct(data.model.recall)}, mAP50{' '}
            {num(data.model.map50)}
          </p>
        </>
      ) : null}
    </section>
  );
}
