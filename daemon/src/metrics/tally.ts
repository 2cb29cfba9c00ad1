export type Labels = Record<string, string>;

/** Sums of named figures per label set: what a counter family reports on each scrape. */
export class Tally<F extends string> {
  private readonly cells = new Map<string, { labels: Labels; sums: Record<F, number> }>();

  constructor(private readonly figures: readonly F[]) {}

  add(labels: Labels, values: Partial<Record<F, number | null>>): void {
    const key = JSON.stringify(labels);
    let cell = this.cells.get(key);
    if (!cell) {
      const sums = Object.fromEntries(this.figures.map((f) => [f, 0])) as Record<F, number>;
      cell = { labels, sums };
      this.cells.set(key, cell);
    }
    for (const figure of this.figures) cell.sums[figure] += values[figure] ?? 0;
  }

  *entries(): Generator<{ labels: Labels; sums: Readonly<Record<F, number>> }> {
    yield* this.cells.values();
  }
}
