/** The filter bar: folder, kind, status, class, minimum score, review state, search and sort. */
import type { FolderView, ItemStatus, LibrarySort, MediaKind } from '@shared/contract/index.js';
import { middleEllipsis } from '../folders/middle-ellipsis.js';
import { useLibraryState, type LibraryFilters as Filters } from './library-state.js';
import { MinScoreSlider } from '../../ui/min-score-slider.js';

const STATUSES: ItemStatus[] = ['new', 'labelled', 'failed', 'uncertain', 'unreadable'];
const SORTS: Record<LibrarySort, string> = {
  path: 'Path',
  name: 'Name',
  modified: 'Modified',
  size: 'Size',
  boxes: 'Boxes',
  // Files not reviewed yet, most expected corrections first (issue 13 §4).
  priority: 'Review priority',
};

function Select<T extends string>(props: {
  label: string;
  value: T | null;
  any?: string;
  options: readonly (readonly [T, string])[];
  onChange(v: T | null): void;
}) {
  return (
    <label className="filter">
      <span>{props.label}</span>
      <select
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value === '' ? null : (e.target.value as T))}
      >
        {props.any !== undefined ? <option value="">{props.any}</option> : null}
        {props.options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

export function LibraryFilters({ folders, classes }: { folders: FolderView[]; classes: string[] }) {
  const { filters: f, setFilters } = useLibraryState();
  const set = (patch: Partial<Filters>) => setFilters((old) => ({ ...old, ...patch }));
  return (
    <div className="filter-bar" role="search" aria-label="Library filters">
      <label className="filter filter-search">
        <span>Search</span>
        <input
          type="search"
          placeholder="File name"
          value={f.search}
          onChange={(e) => set({ search: e.target.value })}
        />
      </label>
      <Select
        label="Folder"
        any="All folders"
        value={f.folderId === null ? null : String(f.folderId)}
        options={folders.map((x) => [String(x.id), middleEllipsis(x.path, 40)] as const)}
        onChange={(v) => set({ folderId: v === null ? null : Number(v) })}
      />
      <Select<MediaKind>
        label="Kind"
        any="Images and clips"
        value={f.kind}
        options={[
          ['image', 'Images'],
          ['video', 'Clips'],
        ]}
        onChange={(kind) => set({ kind })}
      />
      <Select<ItemStatus>
        label="Status"
        any="Any status"
        value={f.status}
        options={STATUSES.map((s) => [s, s] as const)}
        onChange={(status) => set({ status })}
      />
      <Select
        label="Class"
        any="Any class"
        value={f.label}
        options={classes.map((c) => [c, c] as const)}
        onChange={(label) => set({ label })}
      />
      <MinScoreSlider
        id="min-score"
        value={f.minScore}
        onChange={(minScore) => set({ minScore })}
      />
      <Select<'unreviewed' | 'reviewed'>
        label="Review"
        any="Any review state"
        value={f.review}
        options={[
          ['unreviewed', 'To review'],
          ['reviewed', 'Reviewed'],
        ]}
        onChange={(review) => set({ review })}
      />
      <button
        type="button"
        className="filter-toggle"
        aria-pressed={f.conflicts}
        title="Files where the model gave one object two classes"
        onClick={() => set({ conflicts: !f.conflicts })}
      >
        Conflicts
      </button>
      <Select<LibrarySort>
        label="Sort"
        value={f.sort}
        options={Object.entries(SORTS) as [LibrarySort, string][]}
        onChange={(sort) => set({ sort: sort ?? 'path' })}
      />
      <button
        type="button"
        className="filter-toggle"
        aria-pressed={f.descending}
        onClick={() => set({ descending: !f.descending })}
      >
        Descending
      </button>
    </div>
  );
}
