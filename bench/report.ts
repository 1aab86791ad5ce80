/** Benchmark output: one line per figure, with the goal and whether it was met. */
export interface Figure {
  name: string;
  value: string;
  goal?: string;
  met?: boolean;
}

export function printFigures(section: string, figures: readonly Figure[]): void {
  process.stdout.write(`\n## ${section}\n`);
  for (const f of figures) {
    const goal = f.goal ? `  (goal ${f.goal}: ${f.met ? 'met' : 'NOT met'})` : '';
    process.stdout.write(`- ${f.name}: ${f.value}${goal}\n`);
  }
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
