/**
 * The Quality screen: the model measured on the reviewed files (their shown boxes are ground
 * truth) — per-class figures, precision–recall curves, confusions, and every mistake one click
 * from the review. The evaluation runs in a worker thread of the application.
 */
import { useState } from 'react';
import type { Mistake } from '@shared/contract/index.js';
import { useCall } from '../../api/use-call.js';
import { useAppState } from '../../app/app-state.js';
import { EmptyState } from '../../ui/empty-state.js';
import { ErrorNote } from '../../ui/error-note.js';
import { plural } from '../../ui/format.js';
import { MinScoreSlider } from '../../ui/min-score-slider.js';
import { useLibraryState } from '../library/library-state.js';
import { useDebounced } from '../library/use-debounced.js';
import { AutoAcceptButton } from './auto-accept-button.js';
import { CocoSummaryPanel } from './coco-summary-panel.js';
import { ConfusionTable } from './confusion-table.js';
import { MistakeList } from './mistake-list.js';
import { PrCurves } from './pr-curves.js';
import { percent } from './quality-format.js';
import { QualityTable } from './quality-table.js';
import { ThresholdTable } from './threshold-table.js';
import { useStoredTarget } from './use-stored-target.js';
import '../../styles/quality.css';

export function QualityScreen() {
  const { solution, go } = useAppState();
  const { openOnBox } = useLibraryState();
  const [minScore, setMinScore] = useState(0);
  const targetPrecision = useStoredTarget(solution);
  const { target } = targetPrecision;
  const wantedScore = useDebounced(minScore, 300);
  const q = useCall(
    'quality.evaluate',
    { solution, minScore: wantedScore, targetPrecision: target },
    // Measured once the stored target is known, not first at a default and then again.
    { placeholderData: (prev) => prev, enabled: target !== undefined },
  );
  const report = q.data;
  const open = (m: Mistake) => {
    openOnBox(m.mediaId, m.boxKey);
    go('library');
  };
  return (
    <div className="screen quality-screen">
      <div className="screen-head">
        <h1>Quality</h1>
        <span className="muted" aria-live="polite">
          {report
            ? `${plural(report.reviewedFiles, 'reviewed file')} · ${solution} · mAP50 ${percent(report.map50)} · mAP ${percent(report.map)}`
            : q.isPending
              ? 'Measuring…'
              : ''}
        </span>
        <MinScoreSlider id="quality-min-score" value={minScore} onChange={setMinScore} />
        <label className="filter inline">
          <span>Target precision</span>
          <input
            type="number"
            min={50}
            max={99.9}
            step={0.5}
            value={
              targetPrecision.shown !== undefined && Number.isFinite(targetPrecision.shown)
                ? targetPrecision.shown
                : ''
            }
            onChange={(e) => targetPrecision.setTyped(e.target.valueAsNumber)}
          />
          <span>%</span>
        </label>
        <AutoAcceptButton solution={solution} target={target ?? 0.95} />
      </div>
      {q.isError ? <ErrorNote error={q.error} title="Could not measure the model" /> : null}
      {targetPrecision.error ? (
        <ErrorNote error={targetPrecision.error} title="Could not keep the target precision" />
      ) : null}
      {report && report.reviewedFiles === 0 ? (
        <EmptyState title="No reviewed files yet">
          Open a file in the Library, check its boxes and press M (Mark reviewed): what it then
          shows is the ground truth the model is measured against.
        </EmptyState>
      ) : null}
      {report && report.reviewedFiles > 0 ? (
        <div className="quality-body">
          <p className="muted small">
            Counts at IoU 0.5 and score ≥ {report.minScore.toFixed(2)}; AP50 and AP (IoU 0.50:0.95)
            as COCO computes them, over every model box.
          </p>
          <QualityTable classes={report.classes} map50={report.map50} map={report.map} />
          <CocoSummaryPanel solution={solution} target={report.targetPrecision} />
          <ThresholdTable rows={report.calibration} target={report.targetPrecision} />
          <PrCurves classes={report.classes} />
          <ConfusionTable confusion={report.confusion} />
          <MistakeList report={report} onOpen={open} />
        </div>
      ) : null}
    </div>
  );
}
