import { lstatSync, type Dirent, type Stats } from 'node:fs';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { outOfBounds, type Fence } from './fence.js';
import { kindOf } from './untrusted-file.js';

/** How far a walk of an untrusted tree goes. */
export interface WalkLimits {
  /** Folders below the start (Claude's deepest transcript is 4 down). */
  maxDepth: number;
  /** Entries read, of every kind: a tree with more is read up to here and reported. */
  maxEntries: number;
}

/** Reasons told one by one; past this, only their count (a hostile tree must not bloat the report). */
const MAX_REFUSALS = 1000;

export const TRANSCRIPT_WALK: WalkLimits = { maxDepth: 12, maxEntries: 200_000 };

export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

const identity = (info: Stats): FileIdentity => ({
  dev: info.dev,
  ino: info.ino,
  size: info.size,
  mtimeMs: info.mtimeMs,
});

export interface FoundFile {
  /** The file's path from the start, without a link on the way (a followed link: its target's). */
  path: string;
  /** The file's identity (of its target, for a followed link): four numbers, not a whole Stats. */
  info: FileIdentity;
}

export interface WalkResult {
  /** Sorted by path. */
  files: FoundFile[];
  /** What a walk left out, with the reason: a link out of the fence, a special file, a cap. */
  refused: { path: string; error: string }[];
}

interface Folder {
  path: string;
  real: string;
  depth: number;
}

/**
 * The regular files under `start` whose path `accepts`, without ever blocking the event loop (each
 * folder is read in batches by the thread pool). A link is followed only when its real path is
 * inside the fence, and a folder only once (by real path), so links to `.` or `..` cannot make the
 * walk loop or multiply; a file is listed once, under its path without links from the start. Named like a wanted file but not a
 * regular one (a folder, a FIFO, a link out) is reported, never opened.
 */
export function walkInside(
  fence: Fence,
  start: string,
  accepts: (path: string) => boolean,
  limits: WalkLimits,
): Promise<WalkResult> {
  return new Walk(fence, start, accepts, limits).run();
}

class Walk {
  private readonly result: WalkResult = { files: [], refused: [] };
  private readonly seenFolders = new Set<string>();
  private readonly seenFiles = new Set<string>();
  private readonly stack: Folder[] = [];
  private entries = 0;
  private tooDeep = false;
  private unsaid = 0;
  private startReal = '';

  constructor(
    private readonly fence: Fence,
    private readonly start: string,
    private readonly accepts: (path: string) => boolean,
    private readonly limits: WalkLimits,
  ) {}

  async run(): Promise<WalkResult> {
    let startReal: string;
    try {
      startReal = await realpath(this.start);
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.refuse(this.start, messageOf(error));
      return this.result;
    }
    const why = outOfBounds(this.fence, startReal);
    if (why) return { files: [], refused: [{ path: this.start, error: why }] };
    this.startReal = startReal;
    this.seenFolders.add(startReal);
    this.stack.push({ path: this.start, real: startReal, depth: 0 });
    while (this.stack.length) if (!(await this.readFolder(this.stack.pop()!))) break;
    if (this.unsaid)
      this.result.refused.push({ path: this.start, error: `and ${this.unsaid} more left out` });
    this.result.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return this.result;
  }

  /** Reads one folder; false once the entry cap is reached. */
  private async readFolder(folder: Folder): Promise<boolean> {
    // Plain files are looked at in short synchronous slices: far cheaper than a promise each, and
    // the event loop turns between slices.
    const plain: string[] = [];
    let going = true;
    try {
      // A folder swapped for a link since it was listed is not read: its files would be named as if
      // they were inside.
      if ((await realpath(folder.path)) !== folder.real) {
        this.refuse(folder.path, 'changed while the scan read it');
        return true;
      }
      for await (const entry of await opendir(folder.path, { bufferSize: 256 })) {
        if (++this.entries > this.limits.maxEntries) {
          this.refuse(
            this.start,
            `more than ${this.limits.maxEntries} entries: the rest was not read`,
          );
          going = false;
          break;
        }
        const path = join(folder.path, entry.name);
        const target =
          plainKind(entry) ?? (await kindOfEntry(entry, path, this.fence, this.accepts));
        this.take(folder, entry.name, target, plain);
      }
    } catch (error: unknown) {
      this.refuse(folder.path, messageOf(error));
    }
    await statInSlices(plain, this.result);
    return going;
  }

  /** Takes one entry in: a folder to read, a file found, or a reason to leave it out. */
  private take(folder: Folder, name: string, target: Target, plain: string[]): void {
    const listed = join(folder.path, name);
    if ('refused' in target) return this.refuse(listed, target.refused);
    const real = target.real ?? join(folder.real, name);
    // Where a followed link leads, named from the start: one name per file, the one the watcher
    // hears and the cursor is kept under, whichever way the walk came.
    const path = target.real ? join(this.start, relative(this.startReal, real)) : listed;
    if (target.kind === 'folder') {
      if (this.accepts(path)) this.refuse(path, 'not a regular file (a directory)');
      if (this.seenFolders.has(real)) return;
      if (folder.depth + 1 > this.limits.maxDepth) {
        if (!this.tooDeep)
          this.refuse(path, `deeper than ${this.limits.maxDepth} folders: not read`);
        this.tooDeep = true;
        return;
      }
      this.seenFolders.add(real);
      this.stack.push({ path, real, depth: folder.depth + 1 });
    } else if (target.kind === 'file') {
      if (!this.accepts(path) || this.seenFiles.has(real)) return;
      this.seenFiles.add(real);
      if (target.info) this.result.files.push({ path, info: identity(target.info) });
      else plain.push(path);
    } else if (this.accepts(path)) this.refuse(path, `not a regular file (${target.kind})`);
  }

  private refuse(path: string, error: string): void {
    if (this.result.refused.length < MAX_REFUSALS) this.result.refused.push({ path, error });
    else this.unsaid++;
  }
}

type Target =
  | { kind: 'folder' | 'file'; real?: string; info?: Stats }
  | { kind: string; real?: undefined; info?: undefined }
  | { refused: string };

/** What an entry is, when the folder listing says so (most): no promise per entry. */
function plainKind(entry: Dirent): Target | null {
  if (entry.isDirectory()) return { kind: 'folder' };
  if (entry.isFile()) return { kind: 'file' };
  if (entry.isFIFO()) return { kind: 'a FIFO' };
  if (entry.isSocket()) return { kind: 'a socket' };
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return { kind: 'a device' };
  return null;
}

/** What a link (judged by its real path) or an entry of an unknown kind is. */
async function kindOfEntry(
  entry: Dirent,
  path: string,
  fence: Fence,
  accepts: (path: string) => boolean,
): Promise<Target> {
  if (!entry.isSymbolicLink()) {
    // Some file systems do not say what an entry is: ask.
    const info = await lstat(path);
    if (info.isSymbolicLink()) return followLink(path, fence, accepts);
    return info.isDirectory()
      ? { kind: 'folder' }
      : info.isFile()
        ? { kind: 'file', info }
        : { kind: kindOf(info) };
  }
  return followLink(path, fence, accepts);
}

async function followLink(
  path: string,
  fence: Fence,
  accepts: (path: string) => boolean,
): Promise<Target> {
  let real: string;
  let info: Stats;
  try {
    real = await realpath(path);
    info = await stat(real);
  } catch {
    return accepts(path) ? { refused: 'a link that leads nowhere' } : { kind: 'a broken link' };
  }
  const why = outOfBounds(fence, real);
  if (why) return accepts(path) || info.isDirectory() ? { refused: why } : { kind: 'a link out' };
  if (info.isDirectory()) return { kind: 'folder', real };
  if (info.isFile()) return { kind: 'file', real, info };
  return { kind: kindOf(info) };
}

const SLICE = 256;

async function statInSlices(paths: string[], result: WalkResult): Promise<void> {
  for (let i = 0; i < paths.length; i += SLICE) {
    if (i) await new Promise((resolve) => setImmediate(resolve));
    for (const path of paths.slice(i, i + SLICE)) {
      try {
        result.files.push({ path, info: identity(lstatSync(path)) });
      } catch (error: unknown) {
        result.refused.push({ path, error: messageOf(error) });
      }
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
