import { isRecord } from '../../shared/is-record';
import type { TimelineItem } from './timeline';

/**
 * Gives back, from one build of the timeline to the next, the row objects that did not change.
 *
 * The timeline is rebuilt from its window at every scroll step and every live event, and each
 * build makes new objects: the rows still on screen would get a new input, run their computations
 * again, and their old objects (promoted by then) would be garbage for the major GC. A row equal to
 * the previous build's row of the same key (its fields the same values, or objects and arrays
 * holding the same values) is that previous object; when every row is, the previous array is.
 */
export function stableRows(): (next: TimelineItem[]) => TimelineItem[] {
  let previous: TimelineItem[] = [];
  let byKey = new Map<string, TimelineItem>();
  return (next) => {
    let same = next.length === previous.length;
    const kept = next.map((item, i) => {
      const before = byKey.get(item.key);
      const row = before && sameRow(before, item) ? before : item;
      same &&= row === previous[i];
      return row;
    });
    if (same) return previous;
    previous = kept;
    byKey = new Map(kept.map((row) => [row.key, row]));
    return kept;
  };
}

function sameRow(a: TimelineItem, b: TimelineItem): boolean {
  return sameFields(a, b, (x, y) => x === y || sameFields(x, y, Object.is));
}

/** Same own keys, each value equal by `equal`; only plain objects and arrays are compared. */
function sameFields(a: unknown, b: unknown, equal: (x: unknown, y: unknown) => boolean): boolean {
  if (!isRecord(a) || !isRecord(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]));
}
