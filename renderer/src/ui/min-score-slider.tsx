/** A "Minimum score" slider, 0–1 by 0.05, its value written beside it and read out. */
export function MinScoreSlider({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number;
  onChange(score: number): void;
}) {
  return (
    <div className="filter filter-score">
      <label htmlFor={id}>Minimum score</label>
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={value}
        aria-valuetext={value.toFixed(2)}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <output htmlFor={id}>{value.toFixed(2)}</output>
    </div>
  );
}
