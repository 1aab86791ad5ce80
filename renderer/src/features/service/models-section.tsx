/**
 * The Service screen's Models section (issue 27 §2): own ONNX detectors the embedded service runs
 * beside its built-in models, added from a file path and removed; the library's minimum score
 * (what is shown and exported by default, while the service keeps lower boxes) is set here too.
 */
import type { OwnModel } from '@shared/contract/index.js';
import { useState, type FormEvent } from 'react';
import { useCall, useCallMutation } from '../../api/use-call.js';
import { ErrorNote } from '../../ui/error-note.js';
import { count } from '../../ui/format.js';

const TYPES = ['yolov5', 'yolov8', 'yolo11', 'yolox', 'rtdetr', 'end2end'] as const;
type ModelType = (typeof TYPES)[number];
const AFTER = ['models.list', 'service.state', 'runs.estimate'] as const;

function ModelRow({ m }: { m: OwnModel }) {
  const remove = useCallMutation('models.remove', [...AFTER]);
  return (
    <tr>
      <th scope="row">{m.id}</th>
      <td title={m.typeFrom}>{m.type}</td>
      <td>
        {m.input.width}×{m.input.height}
      </td>
      <td>{m.classes.length > 0 ? `${m.classes.length} (${m.namesFrom})` : 'by number'}</td>
      <td>{m.frameCost.image}</td>
      <td>
        {m.source}, {count(m.bytes)} bytes
      </td>
      <td>
        <button
          type="button"
          aria-label={`Remove ${m.id}`}
          disabled={remove.isPending}
          onClick={() => remove.mutate({ id: m.id })}
        >
          Remove
        </button>
        {remove.isError ? <ErrorNote error={remove.error} /> : null}
      </td>
    </tr>
  );
}

function AddModelForm() {
  const [file, setFile] = useState('');
  const [type, setType] = useState<ModelType | ''>('');
  const [namesFile, setNamesFile] = useState('');
  const [id, setId] = useState('');
  const add = useCallMutation('models.add', [...AFTER]);

  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate({
      file: file.trim(),
      ...(type ? { type } : {}),
      ...(namesFile.trim() ? { namesFile: namesFile.trim() } : {}),
      ...(id.trim() ? { id: id.trim() } : {}),
    });
  }

  return (
    <form className="form-card" onSubmit={submit} aria-label="Add a model">
      <h3>Add an ONNX model</h3>
      <label className="field">
        <span>Model file</span>
        <input
          required
          placeholder="/path/to/best.onnx"
          value={file}
          onChange={(e) => setFile(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Layout</span>
        <select value={type} onChange={(e) => setType(e.target.value as ModelType | '')}>
          <option value="">From its output</option>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Class names file (when the model has none)</span>
        <input value={namesFile} onChange={(e) => setNamesFile(e.target.value)} />
      </label>
      <label className="field">
        <span>Id</span>
        <input
          placeholder="from the file name"
          value={id}
          onChange={(e) => setId(e.target.value)}
        />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Checking…' : 'Add model'}
        </button>
      </div>
      {add.isError ? <ErrorNote error={add.error} /> : null}
      {add.isSuccess ? (
        <p role="status">
          Added {add.data.model.id}. {add.data.notes.join(' ')}
        </p>
      ) : null}
    </form>
  );
}

function MinScoreForm() {
  const stored = useCall('library.minScore', {});
  const save = useCallMutation('library.setMinScore', ['library.minScore', 'library.classCounts']);
  const [typed, setTyped] = useState<string | null>(null);
  const shown = typed ?? (stored.data ? String(stored.data.minScore) : '');
  return (
    <form
      className="form-card"
      aria-label="Minimum score"
      onSubmit={(e) => {
        e.preventDefault();
        const minScore = Number(shown);
        if (minScore >= 0 && minScore <= 1)
          save.mutate({ minScore }, { onSuccess: () => setTyped(null) });
      }}
    >
      <h3>Minimum score</h3>
      <label className="field">
        <span>Boxes below it are kept but not shown nor exported by default</span>
        <input
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={shown}
          onChange={(e) => setTyped(e.target.value)}
        />
      </label>
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save
        </button>
      </div>
      {save.isError ? <ErrorNote error={save.error} /> : null}
    </form>
  );
}

export function ModelsSection() {
  const models = useCall('models.list', {});
  return (
    <section className="panel" aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      <p className="hint">
        Your own ONNX detectors (YOLOv5, YOLOv8, YOLO11, YOLOX, RT-DETR or end-to-end exports), run
        by the embedded service on this computer beside its built-in models.
      </p>
      {models.isError ? <ErrorNote error={models.error} /> : null}
      {models.data && models.data.length > 0 ? (
        <table className="data-table" aria-label="Own models">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Layout</th>
              <th scope="col">Input</th>
              <th scope="col">Classes</th>
              <th scope="col">Frames</th>
              <th scope="col">File</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {models.data.map((m) => (
              <ModelRow key={m.id} m={m} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No own models yet.</p>
      )}
      <div className="form-row">
        <AddModelForm />
        <MinScoreForm />
      </div>
    </section>
  );
}
