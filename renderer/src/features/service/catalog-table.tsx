/** The catalog: each solution with its classes and frame costs, then the service's limits. */
import type { SolutionView } from '@shared/contract/index.js';
import { count } from '../../ui/format.js';

/** A cost the service does not publish and LabelDesk has not learnt yet (it learns it from the first file). */
const NOT_PUBLISHED = 'not published: learnt from the first file';

function limitText(value: unknown): string {
  if (typeof value === 'number') return count(value);
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => `${k} ${String(v)}`)
      .join(', ');
  }
  return String(value);
}

/** "maxImageBytes" → "Max image bytes". */
function humanKey(key: string): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function CatalogTable({
  solutions,
  limits,
}: {
  solutions: SolutionView[];
  limits: Record<string, unknown> | null;
}) {
  return (
    <section className="panel" aria-labelledby="catalog-title">
      <h2 id="catalog-title">Catalog</h2>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Solution</th>
            <th scope="col">Media</th>
            <th scope="col">Frames per image</th>
            <th scope="col">Frames per clip frame</th>
            <th scope="col">Classes</th>
          </tr>
        </thead>
        <tbody>
          {solutions.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <span className="cell-strong">{s.name}</span> <code className="muted">{s.id}</code>
                <div className="muted small">{s.description}</div>
              </th>
              <td>{s.media.join(', ')}</td>
              <td className="num">{s.frameCost.image ?? NOT_PUBLISHED}</td>
              <td className="num">{s.frameCost.videoFrame ?? NOT_PUBLISHED}</td>
              <td>
                <details>
                  <summary>{s.classes.length} classes</summary>
                  <p className="class-list">{s.classes.join(', ')}</p>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {limits ? (
        <>
          <h3>Limits</h3>
          <dl className="facts facts-grid">
            {Object.entries(limits).map(([k, v]) => (
              <div key={k}>
                <dt>{humanKey(k)}</dt>
                <dd>{limitText(v)}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </section>
  );
}
