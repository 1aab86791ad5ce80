/** How the Quality screen writes its figures: percentages, and "—" where COCO says -1. */
export function percent(v: number): string {
  return v < 0 ? '—' : `${(v * 100).toFixed(1)} %`;
}

export function score(v: number | null): string {
  return v === null ? '' : v.toFixed(2);
}
