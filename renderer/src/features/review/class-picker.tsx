/**
 * The label field: type-ahead over the solution's classes (and the labels already in use), or any
 * new label. Enter applies it to the selected boxes, or to the boxes drawn next when none is; on a
 * clip, `Relabel track` applies it to the selected box's whole track.
 */
import { useId, useState, type RefObject } from 'react';

interface ClassPickerProps {
  /** The label shown when the selection changes. */
  value: string;
  classes: readonly string[];
  selectedCount: number;
  inputRef: RefObject<HTMLInputElement | null>;
  onApply(label: string): void;
  /** Escape: back to the stage without a change. */
  onDone(): void;
  /** A clip's selected box is on a track: the label can go to the whole track too. */
  onApplyTrack?: ((label: string) => void) | null;
}

export function ClassPicker(props: ClassPickerProps) {
  const listId = useId();
  const [text, setText] = useState(props.value);
  // The field follows a new selection in the same render, not an effect later: an L pressed right
  // after selecting selects the new label, which a late reset would have unselected (the next
  // keys then appended to it: "personplayer").
  const [shownFor, setShownFor] = useState(props.value);
  if (shownFor !== props.value) {
    setShownFor(props.value);
    setText(props.value);
  }
  const apply = () => {
    const label = text.trim();
    if (label) props.onApply(label);
    props.onDone();
  };
  return (
    <form
      className="class-picker"
      aria-label="Label"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <label className="filter">
        <span>
          {props.selectedCount > 0
            ? `Label of ${props.selectedCount} selected`
            : 'Label for new boxes'}
        </span>
        <input
          ref={props.inputRef}
          role="combobox"
          aria-label="Label"
          list={listId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            setText(props.value);
            props.onDone();
          }}
        />
      </label>
      <datalist id={listId}>
        {props.classes.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <button type="submit">{props.selectedCount > 0 ? 'Relabel' : 'Use label'}</button>
      {props.onApplyTrack ? (
        <button
          type="button"
          title="Every box of the selected box's track, on every frame"
          onClick={() => {
            const label = text.trim();
            if (label) props.onApplyTrack?.(label);
            props.onDone();
          }}
        >
          Relabel track
        </button>
      ) : null}
    </form>
  );
}
