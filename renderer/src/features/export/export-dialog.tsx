/**
 * The export dialog: format, destination (typed, or the native save dialog in the desktop app),
 * scope, filters of the boxes, clips as frames, and a progress bar; it ends with "Exported …" and,
 * in the desktop app, "Show in folder". An existing target is refused unless Replace is ticked.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type {
  ExportFormat,
  ExportProgress,
  ExportResult,
  ExportScope,
  LibraryFilter,
} from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { useCall } from '../../api/use-call.js';
import { editsSaved } from '../../api/saving-edits.js';
import { ErrorNote } from '../../ui/error-note.js';
import { FormatSelect, PathField } from '../../ui/file-format-fields.js';
import { useLibraryMinScore } from '../library/use-library-min-score.js';
import { plural } from '../../ui/format.js';

const FORMATS: { id: ExportFormat; name: string; folder: boolean }[] = [
  { id: 'coco', name: 'COCO', folder: false },
  { id: 'coco-results', name: 'COCO results (model boxes, for scoring)', folder: false },
  { id: 'yolo', name: 'YOLO', folder: true },
  { id: 'voc', name: 'Pascal VOC', folder: true },
  { id: 'csv', name: 'CSV', folder: false },
  { id: 'mot', name: 'MOT', folder: true },
  { id: 'events', name: 'Events (CSV)', folder: false },
];
const FRAME_FORMATS: ReadonlySet<ExportFormat> = new Set(['coco', 'yolo', 'voc']);

interface ExportDialogProps {
  solution: string;
  filter: LibraryFilter;
  selection: readonly number[];
  classes: readonly string[];
}

export function ExportDialog({ solution, filter, selection, classes }: ExportDialogProps) {
  const { api } = useApiHandle();
  const info = useCall('app.info', {});
  const native = info.data?.nativeDialogs ?? false;
  const dialog = useRef<HTMLDialogElement>(null);
  const [format, setFormat] = useState<ExportFormat>('coco');
  const [destination, setDestination] = useState('');
  const [scope, setScope] = useState<ExportScope['kind']>('all');
  const [onlyAccepted, setOnlyAccepted] = useState(false);
  const [byPerson, setByPerson] = useState(false);
  const [minScore, setMinScore] = useState(0);
  // Starts at the library's minimum score, unless the person typed one before it loaded.
  useLibraryMinScore((stored) => setMinScore((typed) => (typed === 0 ? stored : typed)));
  const [wanted, setWanted] = useState('');
  const [clipFrames, setClipFrames] = useState(false);
  const [interpolate, setInterpolate] = useState(false);
  const [replace, setReplace] = useState(false);
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [result, setResult] = useState<ExportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  // As the export use-case says: formats that write a clip's frames (MOT, CSV, clips as frames).
  const canInterpolate =
    format === 'mot' || format === 'csv' || (clipFrames && FRAME_FORMATS.has(format));
  const folder = FORMATS.find((f) => f.id === format)?.folder ?? false;

  useEffect(
    () =>
      api.on('export.progress', (p) => {
        if (p.destination === destination.trim()) setProgress(p);
      }),
    [api, destination],
  );

  function open() {
    setResult(null);
    setError(null);
    setProgress(null);
    if (selection.length === 0 && scope === 'selection') setScope('all');
    dialog.current?.showModal();
  }

  async function pick() {
    try {
      const { path } = await api.call('host.pickSaveTarget', {
        folder,
        ...(folder ? {} : { defaultName: `${format}.${format === 'coco' ? 'json' : 'csv'}` }),
      });
      if (path) setDestination(path);
    } catch (err) {
      setError(err);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setRunning(true);
    setResult(null);
    setError(null);
    setProgress(null);
    const chosen = wanted
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const scoped: ExportScope =
      scope === 'filter'
        ? { kind: 'filter', filter }
        : scope === 'selection'
          ? { kind: 'selection', ids: [...selection] }
          : { kind: 'all' };
    try {
      await editsSaved();
      const r = await api.call('export.start', {
        format,
        destination: destination.trim(),
        solution,
        scope: scoped,
        onlyAccepted,
        byPerson: onlyAccepted && byPerson,
        minScore,
        ...(chosen.length ? { classes: chosen } : {}),
        clipFrames: clipFrames && FRAME_FORMATS.has(format),
        interpolate: interpolate && canInterpolate,
        replace,
      });
      setResult(r);
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  }

  const total = progress?.total ?? null;
  const doneItems = progress ? progress.files + progress.skipped : 0;
  return (
    <>
      <button type="button" onClick={open}>
        Export
      </button>
      <dialog ref={dialog} className="modal export-dialog" aria-labelledby="export-title">
        <form onSubmit={(e) => void submit(e)}>
          <h2 id="export-title">Export boxes</h2>
          <FormatSelect formats={FORMATS} value={format} onChange={setFormat} />
          <PathField
            label="Destination"
            value={destination}
            onChange={setDestination}
            placeholder={folder ? '/home/me/exports/yolo' : '/home/me/exports/boxes.json'}
            onChoose={native ? () => void pick() : undefined}
          />
          <p className="hint">
            {folder ? 'A new or empty folder.' : 'A file.'} An existing export is kept unless
            Replace is ticked.
          </p>
          <fieldset className="export-scope">
            <legend>Scope</legend>
            {(
              [
                ['all', 'Whole library'],
                ['filter', 'Current filter'],
                ['selection', `Selection (${selection.length})`],
              ] as const
            ).map(([kind, text]) => (
              <label key={kind} className="radio">
                <input
                  type="radio"
                  name="export-scope"
                  checked={scope === kind}
                  disabled={kind === 'selection' && selection.length === 0}
                  onChange={() => setScope(kind)}
                />
                {text}
              </label>
            ))}
          </fieldset>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={onlyAccepted}
              onChange={(e) => setOnlyAccepted(e.target.checked)}
            />
            Only accepted
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={byPerson}
              disabled={!onlyAccepted}
              onChange={(e) => setByPerson(e.target.checked)}
            />
            Only accepted by a person
          </label>
          <label className="field">
            <span>Minimum score</span>
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={minScore}
              onChange={(e) => setMinScore(Math.min(1, Math.max(0, Number(e.target.value) || 0)))}
            />
          </label>
          <label className="field">
            <span>Classes</span>
            <input
              type="text"
              list="export-classes"
              placeholder="All classes (or e.g. person, car)"
              value={wanted}
              onChange={(e) => setWanted(e.target.value)}
            />
            <datalist id="export-classes">
              {classes.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={clipFrames && FRAME_FORMATS.has(format)}
              disabled={!FRAME_FORMATS.has(format)}
              onChange={(e) => setClipFrames(e.target.checked)}
            />
            Clips as frames (write their analysed frames as images)
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={interpolate && canInterpolate}
              disabled={!canInterpolate}
              onChange={(e) => setInterpolate(e.target.checked)}
            />
            Interpolated frames (every frame of a clip)
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={replace}
              onChange={(e) => setReplace(e.target.checked)}
            />
            Replace an existing export
          </label>
          {running || result ? (
            <progress
              aria-label="Export progress"
              max={total ?? undefined}
              value={result ? (total ?? 1) : total === null ? undefined : doneItems}
            />
          ) : null}
          {error ? <ErrorNote error={error} /> : null}
          {result ? (
            <p role="status" className="export-status">
              Exported {plural(result.boxes, 'box', 'boxes')} from {plural(result.files, 'file')} to{' '}
              {result.destination}
              {result.skipped ? ` (${result.skipped} skipped: not representable)` : ''}
              {result.framesDir ? `; clip frames in ${result.framesDir}` : ''}.
            </p>
          ) : null}
          <div className="actions">
            {result && native ? (
              <button
                type="button"
                onClick={() =>
                  void api.call('host.showInFolder', { path: result.destination }).catch(setError)
                }
              >
                Show in folder
              </button>
            ) : null}
            <button type="button" onClick={() => dialog.current?.close()}>
              Close
            </button>
            <button type="submit" className="primary" disabled={running}>
              Export
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
