/**
 * The Library screen's view state, kept above the screen so filters, selection and scroll focus
 * survive a visit to another screen.
 */
import {
  createContext,
  useContext,
  useMemo,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';
import type { ItemStatus, LibrarySort, MediaKind } from '@shared/contract/index.js';
import { createReviewSession, type ReviewSession } from '../review/review-session.js';
import { EMPTY_SELECTION, type Selection } from './selection.js';

export interface LibraryFilters {
  folderId: number | null;
  kind: MediaKind | null;
  status: ItemStatus | null;
  label: string | null;
  minScore: number;
  review: 'unreviewed' | 'reviewed' | null;
  conflicts: boolean;
  search: string;
  sort: LibrarySort;
  descending: boolean;
}

export const NO_FILTERS: LibraryFilters = {
  folderId: null,
  kind: null,
  status: null,
  label: null,
  minScore: 0,
  review: null,
  conflicts: false,
  search: '',
  sort: 'path',
  descending: false,
};

interface LibraryState {
  filters: LibraryFilters;
  setFilters(update: (f: LibraryFilters) => LibraryFilters): void;
  selection: Selection;
  setSelection: Dispatch<SetStateAction<Selection>>;
  focusIndex: number;
  setFocusIndex(i: number): void;
  openId: number | null;
  setOpenId(id: number | null): void;
  /** The box to select in the item opened (a mistake from the Quality screen); null: none. */
  focusKey: string | null;
  /** Opens an item on the review with this box selected. */
  openOnBox(id: number, boxKey: string): void;
  /** The review session: selection, tool, and undo and redo across items and screens. */
  session: ReviewSession;
}

const LibraryStateContext = createContext<LibraryState | null>(null);

export function LibraryStateProvider({ children }: { children: ReactNode }) {
  const [filters, setFiltersState] = useState(NO_FILTERS);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [focusIndex, setFocusIndex] = useState(0);
  const [openId, setOpenIdState] = useState<number | null>(null);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [session] = useState(() => createReviewSession());
  const value = useMemo<LibraryState>(
    () => ({
      filters,
      // A new filter is a new list: positions (focus, selection anchor) no longer mean the same.
      setFilters: (update) => {
        setFiltersState(update);
        setFocusIndex(0);
        setSelection(EMPTY_SELECTION);
      },
      selection,
      setSelection,
      focusIndex,
      setFocusIndex,
      openId,
      setOpenId: (id) => {
        setFocusKey(null);
        setOpenIdState(id);
      },
      focusKey,
      openOnBox: (id, boxKey) => {
        setFocusKey(boxKey);
        setOpenIdState(id);
      },
      session,
    }),
    [filters, selection, focusIndex, openId, focusKey, session],
  );
  return <LibraryStateContext.Provider value={value}>{children}</LibraryStateContext.Provider>;
}

export function useLibraryState(): LibraryState {
  const s = useContext(LibraryStateContext);
  if (!s) throw new Error('useLibraryState outside LibraryStateProvider');
  return s;
}
