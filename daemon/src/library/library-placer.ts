import {
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { LibraryItem, LibraryKind } from '../../../contract/library.js';
import { LibraryName } from '../../../contract/library.js';

/** Where an agent reads a command and a skill, relative to its configuration folder. */
export interface LibraryLayout {
  file(kind: LibraryKind, name: string): string;
}

/** What Relais placed in a folder, so it removes only its own files, never the person's. */
const MANIFEST = '.relais-library.json';

/**
 * Places the enabled items of one subscription (its own and the common ones, its own winning on a
 * name) in its configuration folder, and removes what it placed before and no longer wants.
 * Names were validated (one plain segment) and are checked again here; a path that is a link,
 * or a file Relais did not place, is never written over.
 */
export function placeLibrary(
  configDir: string,
  layout: LibraryLayout,
  items: LibraryItem[],
  subscriptionId: string,
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
  const before = readManifest(configDir);
  const skipped: string[] = [];
  for (const [relative, text] of wanted) {
    const path = join(configDir, relative);
    if (!before.includes(relative) && exists(path)) {
      skipped.push(relative);
      continue;
    }
    if (!writeInside(configDir, relative, text)) skipped.push(relative);
  }
  for (const relative of before) {
    if (wanted.has(relative)) continue;
    removeInside(configDir, relative);
  }
  writeManifest(
    configDir,
    [...wanted.keys()].filter((r) => !skipped.includes(r)),
  );
  return skipped;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** No segment between the folder and the file may be a link (it could lead anywhere). */
function linkOnTheWay(base: string, relative: string): boolean {
  let path = base;
  for (const segment of relative.split('/')) {
    path = join(path, segment);
    try {
      if (lstatSync(path).isSymbolicLink()) return true;
    } catch {
      return false;
    }
  }
  return false;
}

function writeInside(base: string, relative: string, text: string): boolean {
  if (linkOnTheWay(base, relative)) return false;
  const path = join(base, relative);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (linkOnTheWay(base, relative)) return false;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600, flag: 'w' });
  renameSync(temporary, path);
  return true;
}

function removeInside(base: string, relative: string): void {
  if (linkOnTheWay(base, relative)) return;
  rmSync(join(base, relative), { force: true });
  // A skill's folder goes with its SKILL.md when nothing else is left in it.
  const folder = dirname(join(base, relative));
  if (folder !== base && relative.split('/').length > 2) {
    try {
      rmdirSync(folder);
    } catch {
      // not empty: the person's own files stay
    }
  }
}

function readManifest(base: string): string[] {
  try {
    const list = JSON.parse(readFileSync(join(base, MANIFEST), 'utf8')) as unknown;
    return Array.isArray(list)
      ? list.filter((e): e is string => typeof e === 'string' && !e.includes('..'))
      : [];
  } catch {
    return [];
  }
}

function writeManifest(base: string, placed: string[]): void {
  mkdirSync(base, { recursive: true, mode: 0o700 });
  writeFileSync(join(base, MANIFEST), JSON.stringify(placed), { mode: 0o600 });
}
