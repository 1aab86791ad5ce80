/**
 * The two fields every label-file dialog starts with (import and export): the format, a combobox
 * named "Format", and the path, a textbox named by its role (Source, Destination) with "Choose…"
 * beside it where the desktop app has a native picker.
 */

export interface FileFormat<F extends string> {
  id: F;
  name: string;
}

interface FormatSelectProps<F extends string> {
  formats: readonly FileFormat<F>[];
  value: F;
  onChange: (format: F) => void;
}

export function FormatSelect<F extends string>({ formats, value, onChange }: FormatSelectProps<F>) {
  return (
    <label className="field">
      <span>Format</span>
      <select
        value={value}
        onChange={(e) => {
          // The options are exactly `formats`, so the value is one of their ids.
          const chosen = formats.find((f) => f.id === e.target.value);
          if (chosen) onChange(chosen.id);
        }}
      >
        {formats.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
    </label>
  );
}

interface PathFieldProps {
  /** The field's visible name and accessible name: "Source", "Destination". */
  label: string;
  value: string;
  onChange: (path: string) => void;
  placeholder: string;
  /** Opens the native picker; without it (browser mode, or nothing to pick) no button shows. */
  onChoose?: (() => void) | undefined;
}

export function PathField({ label, value, onChange, placeholder, onChoose }: PathFieldProps) {
  return (
    <div className="path-field">
      <label className="field">
        <span>{label}</span>
        <input
          type="text"
          required
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      {onChoose ? (
        <button type="button" onClick={onChoose}>
          Choose…
        </button>
      ) : null}
    </div>
  );
}
