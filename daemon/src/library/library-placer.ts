import { lstatSync, mkdirSync, realpathSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryItem } from '../../../contract/library.js';
import { LibraryName } from '../../../contract/library.js';
import type { LibraryLayout } from '../agents/agent.js';
import { onDisk, removeConfined, sha256, writeConfined } from '../fs/confined-files.js';

/** The record of what Relais placed in a folder (relative path → SHA-256 of what it wrote). */
export interface PlacedRecord {
  of(configDir: string): Map<string, string>;
  save(configDir: string, placed: ReadonlyMap<string, string>): void;
}

/** Where earlier versions kept that record, in the folder itself: removed, never read. */
const OLD_MANIFEST = '.relais-library.json';

/**
 * Places the enabled items of one subscription (its own and the common ones, its own winning on a
 * name) in its configuration folder, and removes what it placed before and no longer wants.
 * Names were validated (one plain segment) and are checked again here. A file is written over or
 * removed only when Relais' record says it placed it and the file still holds what it wrote (a
 * file already holding exactly the item's text is taken as placed); a link, or a folder on the
 * way that is a link, is never written through. Returns the paths left alone.
 */
export function placeLibrary(
  configDir: string,
  layout: LibraryLayout,
  items: LibraryItem[],
  subscriptionId: string,
  record: PlacedRecord,
): string[] {
  const wanted = new Map<string, string>();
  const chosen = items
    .filter(
      (item) =>
        item.enabled && (item.subscription_id === null || item.subscription_id === subscriptionId),
    )
    .sort((a, b) => Number(a.subscription_id !== null) - Number(b.subscription_id !== null));
  for (const item of chosen) {
    if (!LibraryName.safeParse(item.name).success) continue;
    wanted.set(layout.file(item.kind, item.name), item.content);
  }
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const base = realpathSync(configDir);
  const before = record.of(configDir);
  const placed = new Map<string, string>();
  const skipped: string[] = [];
  for (const [relative, text] of wanted) {
    const hash = sha256(text);
    const found = onDisk(base, relative);
    const ours = found.state === 'file' && before.get(relative) === found.sha256;
    if (found.state === 'file' && found.sha256 === hash) placed.set(relative, hash);
    else if ((found.state === 'absent' || ours) && writeConfined(base, relative, text))
      placed.set(relative, hash);
    else skipped.push(relative);
  }
  for (const [relative, hash] of before) {
    if (!placed.has(relative) && !wanted.has(relative)) removeConfined(base, relative, hash);
  }
  record.save(configDir, placed);
  dropOldManifest(base);
  return skipped;
}

function dropOldManifest(base: string): void {
  const path = join(base, OLD_MANIFEST);
  try {
    // unlink removes a link itself, never its target.
    if (lstatSync(path)) unlinkSync(path);
  } catch {
    // none
  }
}
