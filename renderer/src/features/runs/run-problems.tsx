/** Failed and uncertain files of the solution, each with its code and sentence, and Retry. */
import type { RunProblems as Problems } from '@shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { plural } from '../../ui/format.js';

type Row = Problems['failed'][number];

function ProblemList(props: {
  title: string;
  note: string;
  rows: Row[];
  onRetry(ids: number[]): void;
  busy: boolean;
}) {
  if (props.rows.length === 0) return null;
  return (
    <section className="panel problems" aria-label={props.title}>
      <div className="panel-head">
        <h3>
          {props.title} ({plural(props.rows.length, 'file')})
        </h3>
        <button
          type="button"
          disabled={props.busy}
          onClick={() => props.onRetry(props.rows.map((r) => r.mediaId))}
        >
          Retry
        </button>
      </div>
      <p className="hint">{props.note}</p>
      <ul className="issue-list">
        {props.rows.map((r) => (
          <li key={r.mediaId}>
            <span className="issue-path" title={r.path}>
              <bdi>{r.path}</bdi>
            </span>
            <code className="error-code">{r.code}</code>
            <span>{r.message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RunProblems(props: {
  solution: string;
  busy: boolean;
  onRetry(ids: number[]): void;
}) {
  const problems = useCall('runs.problems', { solution: props.solution });
  if (problems.isError) return <ErrorNote error={problems.error} />;
  if (!problems.data) return null;
  return (
    <>
      <ProblemList
        title="Failed files"
        note="These files could not be labelled. Retry sends them again."
        rows={problems.data.failed}
        busy={props.busy}
        onRetry={props.onRetry}
      />
      <ProblemList
        title="Uncertain files"
        note="Their answer was lost after the upload, so they may have been charged. Retry sends them again and may spend their frames twice."
        rows={problems.data.uncertain}
        busy={props.busy}
        onRetry={props.onRetry}
      />
    </>
  );
}
