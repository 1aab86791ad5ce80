/**
 * The import dialog: a label source (COCO, YOLO, Pascal VOC or CSV; a typed path, or the native
 * folder picker in the desktop app) whose boxes become the labels of the library's files, as a
 * person's accepted boxes. It ends with "Imported …" and lists every file it could not import, with
 * the reason, so nothing is silently skipped.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { ImportFormat, ImportResult } from '@shared/contract/index.js';
import { useApiHandle } from '../../api/api-context.js';
import { useCall } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { FormatSelect, PathField } from '../../ui/file-format-fields.js';
import { plural } from '../../ui/format.js';

const FORMATS: { id: ImportFormat; name: string; hint: string }[] = [
  { id: 'coco', name: 'COCO', hint: 'A COCO JSON file (or a folder of them).' },
  { id: 'yolo', name: 'YOLO', hint: 'A YOLO folder: labels/ with data.yaml or classes.txt.' },
  { id: 'voc', name: 'Pascal VOC', hint: 'A folder of VOC XML files, or one file.' },
  { id: 'csv', name: 'CSV', hint: 'A CSV file with path, label, xmin, ymin, xmax, ymax.' },
];

export function ImportDialog({ solution }: { solution: string }) {
  const { api } = useApiHandle();
  const info = useCall('app.info', {});
  const native = info.data?.nativeDialogs ?? false;
  const dialog = useRef<HTMLDialogElement>(null);
  const [format, setFormat] = useState<ImportFormat>('coco');
  const [source, setSource] = useState('');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);

  function open() {
    setResult(null);
    setError(null);
    dialog.current?.showModal();
  }

  async function pick() {
    try {
      const { paths } = await api.call('host.pickFolders', {});
      if (paths[0]) setSource(paths[0]);
    } catch (err) {
      setError(err);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setRunning(true);
    setResult(null);
    setError(null);
    try {
      setResult(await api.call('labels.import', { format, source: source.trim(), solution }));
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  }

  const labelled = result ? result.files + result.unchanged : 0;
  const folder = format === 'yolo' || format === 'voc';
  return (
    <>
      <button type="button" onClick={open}>
        Import
      </button>
      <dialog ref={dialog} className="modal import-dialog" aria-labelledby="import-title">
        <form onSubmit={(e) => void submit(e)}>
          <h2 id="import-title">Import labels</h2>
          <p className="hint">
            The boxes become the labels of the files they name, as a person’s accepted boxes; the
            model’s own boxes stay stored. Files are found by path, then by name.
          </p>
          <FormatSelect formats={FORMATS} value={format} onChange={setFormat} />
          <PathField
            label="Source"
            value={source}
            onChange={setSource}
            placeholder={folder ? '/home/me/labels' : '/home/me/labels.json'}
            // The native picker chooses folders: offered for the formats that are folders.
            onChoose={native && folder ? () => void pick() : undefined}
          />
          <p className="hint">{FORMATS.find((f) => f.id === format)?.hint}</p>
          {running ? <progress aria-label="Import progress" /> : null}
          {error ? <ErrorNote error={error} /> : null}
          {result ? (
            <p role="status" className="export-status">
              Imported {plural(result.boxes, 'box', 'boxes')} into {plural(labelled, 'file')}
              {result.unchanged ? ` (${result.unchanged} already had them)` : ''}
              {result.issueCount ? `; ${plural(result.issueCount, 'file')} not imported` : ''}.
            </p>
          ) : null}
          {result && result.issues.length ? (
            <ul className="import-issues" aria-label="Not imported">
              {result.issues.map((i, n) => (
                <li key={n}>
                  <code>{i.code}</code> {i.message}
                </li>
              ))}
              {result.issueCount > result.issues.length ? (
                <li>and {plural(result.issueCount - result.issues.length, 'more')}</li>
              ) : null}
            </ul>
          ) : null}
          <div className="actions">
            <button type="button" onClick={() => dialog.current?.close()}>
              Close
            </button>
            <button type="submit" className="primary" disabled={running}>
              Import
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
