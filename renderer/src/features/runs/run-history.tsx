/** Past runs with what each spent. */
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { count, dateTime } from '../../ui/format.js';

export function RunHistory() {
  const history = useCall('runs.history', { limit: 50 });
  if (history.isError) return <ErrorNote error={history.error} />;
  const runs = history.data ?? [];
  return (
    <section className="panel" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {runs.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <table className="data-table" aria-label="Run history">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Solution</th>
              <th scope="col">Service</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Files
              </th>
              <th scope="col" className="num">
                Estimated
              </th>
              <th scope="col" className="num">
                Frames spent
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>{dateTime(r.startedAt)}</td>
                <td>{r.solution}</td>
                <td className="ellipsis" title={r.serviceUrl}>
                  {r.serviceUrl}
                </td>
                <td>{r.status}</td>
                <td className="num">{count(r.files)}</td>
                <td className="num">{count(r.estimateFrames)}</td>
                <td className="num">{count(r.framesSpent)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
