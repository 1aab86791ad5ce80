/** The model's mistakes, most confident first: each opens the review on its box. */
import type { Mistake, QualityReport } from '@shared/contract/index.js';
import { count } from '../../ui/format.js';
import { score } from './quality-format.js';

const KINDS: { kind: Mistake['kind']; title: string }[] = [
  { kind: 'confusion', title: 'Confusions' },
  { kind: 'false-positive', title: 'False positives' },
  { kind: 'miss', title: 'Misses' },
];

const nameOf = (path: string) => path.split(/[\\/]/).pop() ?? path;

function describe(m: Mistake): string {
  const where = `${nameOf(m.path)}${m.frameIndex > 0 ? ` (frame ${m.frameIndex})` : ''}`;
  if (m.kind === 'miss') return `Missed ${m.truthLabel ?? ''} in ${where}`;
  const said = `${m.modelLabel ?? ''} ${score(m.score)}`;
  if (m.kind === 'confusion')
    return `${said} where a person said ${m.truthLabel ?? ''}, in ${where}`;
  return `${said} on nothing, in ${where}`;
}

export function MistakeList({
  report,
  onOpen,
}: {
  report: QualityReport;
  onOpen(m: Mistake): void;
}) {
  return (
    <section className="mistakes" aria-labelledby="mistakes-title">
      <h2 id="mistakes-title">Mistakes</h2>
      {KINDS.map(({ kind, title }) => {
        const list = report.mistakes.filter((m) => m.kind === kind);
        const total = report.mistakeTotals[kind];
        if (total === 0) return null;
        return (
          <div key={kind} className="mistake-group">
            <h3>
              {title} ({count(total)}
              {list.length < total ? `, ${list.length} shown` : ''})
            </h3>
            <ul aria-label={title}>
              {list.map((m) => (
                <li key={`${m.mediaId}:${m.boxKey}:${m.kind}`}>
                  <button type="button" className="link-button" onClick={() => onOpen(m)}>
                    {describe(m)}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
