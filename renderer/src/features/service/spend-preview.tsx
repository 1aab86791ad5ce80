/**
 * The file Check service sent, with the boxes it got back drawn on it, and the per-service
 * reading setting: whether a box's x,y is its corner or its centre. Changing it redraws at once
 * (the boxes were read with `spend.boxOrigin`; a centre reading moves each box by half its size).
 */
import { useState } from 'react';
import type { BoxOrigin, CheckSpend } from '@shared/contract/index.js';
import { useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';

/** The box as the chosen reading places it (normalised 0–1). */
function placed(box: CheckSpend['boxes'][number], readWith: BoxOrigin, shown: BoxOrigin) {
  if (readWith === shown) return box;
  const sign = shown === 'centre' ? -1 : 1;
  return { ...box, x: box.x + (sign * box.w) / 2, y: box.y + (sign * box.h) / 2 };
}

export function SpendPreview({
  spend,
  origin,
  undecided,
}: {
  spend: CheckSpend;
  origin: BoxOrigin;
  /** Nothing decided where x,y is and nobody confirmed it: the person is asked to, here. */
  undecided: boolean;
}) {
  const setReading = useCallMutation('service.setReading', ['service.reading']);
  // Set at once on a click (a controlled radio must not wait for the call to re-render checked).
  const [chosen, setChosen] = useState<BoxOrigin | null>(null);
  // A choice saved is a person's confirmation, kept for the service (issue 23 §3).
  const [confirmed, setConfirmed] = useState<BoxOrigin | null>(null);
  const shown = chosen ?? origin;
  const choose = (o: BoxOrigin) => {
    setChosen(o);
    setReading.mutate(
      { boxOrigin: o },
      { onSuccess: () => setConfirmed(o), onError: () => setChosen(null) },
    );
  };
  return (
    <div className="spend-preview">
      <h3>
        Sent {spend.file} ({spend.solution})
      </h3>
      <p>
        {spend.spent === null ? 'Cost unknown' : `${spend.spent} frames spent`}: {spend.cost}.
      </p>
      <ul aria-label="Detection form">
        {spend.detectionForm.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      {undecided && spend.preview ? (
        <OriginQuestion shown={shown} confirmed={confirmed} onConfirm={() => choose(shown)} />
      ) : null}
      <fieldset className="reading">
        <legend>A box&apos;s x,y is its</legend>
        {(['corner', 'centre'] as const).map((o) => (
          <label key={o}>
            <input
              type="radio"
              name="box-origin"
              value={o}
              checked={shown === o}
              onChange={() => choose(o)}
            />{' '}
            {o === 'corner' ? 'top-left corner' : 'centre'}
          </label>
        ))}
      </fieldset>
      {setReading.isError ? <ErrorNote error={setReading.error} /> : null}
      {spend.preview ? (
        <figure className="spend-figure">
          <div className="spend-stage">
            <img src={spend.preview} alt={`${spend.file} as sent`} />
            <svg
              viewBox="0 0 1 1"
              preserveAspectRatio="none"
              role="img"
              aria-label={`${spend.boxes.length} boxes returned by the service`}
            >
              {spend.boxes.map((b, i) => {
                const p = placed(b, spend.boxOrigin, shown);
                return (
                  <rect
                    key={i}
                    x={p.x}
                    y={p.y}
                    width={p.w}
                    height={p.h}
                    vectorEffect="non-scaling-stroke"
                  >
                    <title>{`${b.label}${b.score === null ? '' : ` ${Math.round(b.score * 100)} %`}`}</title>
                  </rect>
                );
              })}
            </svg>
          </div>
          <figcaption>
            {spend.boxes.length} boxes: {[...new Set(spend.boxes.map((b) => b.label))].join(', ')}
          </figcaption>
        </figure>
      ) : (
        <p className="muted">{spend.boxes.length} boxes (a clip has no preview here).</p>
      )}
    </div>
  );
}

const NAMES: Record<BoxOrigin, string> = { corner: 'top-left corner', centre: 'centre' };

/** Asked while the box origin is undecided: the person looks at the boxes and confirms. */
function OriginQuestion({
  shown,
  confirmed,
  onConfirm,
}: {
  shown: BoxOrigin;
  confirmed: BoxOrigin | null;
  onConfirm: () => void;
}) {
  return (
    <section className="origin-question" aria-labelledby="origin-question-title">
      <h4 id="origin-question-title">Box origin undecided</h4>
      {confirmed ? (
        <p role="status">
          Confirmed: a box&apos;s x,y is its {NAMES[confirmed]}, kept for this service.
        </p>
      ) : (
        <>
          <p>
            The service&apos;s boxes read alike with x,y as their corner or their centre, and
            nothing in its answers decides. They are read as corners until you confirm: do the boxes
            below sit on their objects? If not, choose centre, then confirm.
          </p>
          <button type="button" className="primary" onClick={onConfirm}>
            Confirm: x,y is the {NAMES[shown]}
          </button>
        </>
      )}
    </section>
  );
}
