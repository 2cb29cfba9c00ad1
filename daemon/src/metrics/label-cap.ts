/** The label value everything past a cap folds into. */
export const OTHER = 'other';
const MAX_VALUE_CHARS = 100;

/**
 * Keeps a label's set of values bounded: the first `cap` distinct values keep their name, any
 * later one reads `other`. A value keeps its answer for the life of the process, so a series
 * never moves between names from one scrape to the next.
 */
export class LabelCap {
  private readonly kept = new Set<string>();

  constructor(private readonly cap: number) {}

  of(value: string | null | undefined): string {
    const text = value === null || value === undefined || value === '' ? 'unknown' : value;
    const clean = text.length > MAX_VALUE_CHARS ? text.slice(0, MAX_VALUE_CHARS) : text;
    if (this.kept.has(clean)) return clean;
    if (this.kept.size >= this.cap) return OTHER;
    this.kept.add(clean);
    return clean;
  }
}

/** One cap per label name, shared by every family that carries the label. */
export class LabelCaps {
  readonly subscription = new LabelCap(50);
  readonly agent = new LabelCap(10);
  readonly model = new LabelCap(30);
  readonly app = new LabelCap(30);
  readonly tool = new LabelCap(60);
  readonly rule = new LabelCap(60);
  readonly step = new LabelCap(30);
  readonly outcome = new LabelCap(10);
  readonly decidedBy = new LabelCap(10);
  readonly window = new LabelCap(20);
}
