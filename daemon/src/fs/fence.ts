import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';

/** A path of an untrusted tree that Relais will not open, with the reason. */
export class RefusedPath extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * What a tree Relais does not own (an agent's configuration folder, a folder a skill is imported
 * from) may lead to. Every path is judged by its real path: inside `root`, outside every closed
 * folder, and not refused by `circle` (the zero-access circles of the rules).
 */
export interface Fence {
  /** Real path of the folder nothing may leave. */
  readonly root: string;
  /** Real paths of folders never reached from the tree (Relais' data folder). */
  readonly closed: readonly string[];
  /** Why a real path is out of bounds even inside the root, or null. */
  readonly circle: Circle;
}

/** What stays out of every untrusted tree, whatever its root. */
export interface Bounds {
  /** Folders never reached (Relais' data folder), as given: their real paths are taken here. */
  closed: readonly string[];
  circle?: Circle;
}

/** Why a real path under a tree's root may not be read (the rules' zero-access circles), or null. */
export type Circle = (real: string, root: string) => string | null;

export const isWithin = (path: string, root: string): boolean =>
  root === sep
    ? path.startsWith(sep)
    : path === root || (path.startsWith(root) && path[root.length] === sep);

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path; // a folder not created yet cannot be reached through a link either
  }
}

/**
 * The fence of a tree rooted at `root` (a folder the person named: its own links are theirs). A
 * closed folder that holds the root itself (the built-in subscriptions live in the data folder)
 * does not close the root: the person chose it; it still closes anything outside the root.
 */
export async function fenceOf(root: string, bounds: Bounds): Promise<Fence> {
  const real = await realOrSelf(root);
  const closed = await Promise.all(bounds.closed.map(realOrSelf));
  return {
    root: real,
    closed: closed.filter((folder) => !isWithin(real, folder)),
    circle: bounds.circle ?? (() => null),
  };
}

/** Why a real path may not be read or written from the tree, or null when it may. */
export function outOfBounds(fence: Fence, real: string): string | null {
  if (!isWithin(real, fence.root)) return `leads out of ${fence.root} (to ${real})`;
  if (fence.closed.some((folder) => isWithin(real, folder)))
    return `leads into Relais' data folder (${real})`;
  return fence.circle(real, fence.root);
}

/**
 * The fence of a folder inside another one (an agent's transcripts inside its configuration
 * folder): the folder's real path must stay inside the outer one's, or it is refused whole.
 */
export async function fenceInside(outer: string, folder: string, bounds: Bounds): Promise<Fence> {
  const base = await fenceOf(outer, bounds);
  const real = await realOrSelf(folder);
  const why = outOfBounds(base, real);
  if (why) throw new RefusedPath(folder, why);
  return { ...base, root: real };
}

/** Whether a path (as given, or by its real path) is in one of the closed folders. */
export async function inClosedFolder(path: string, bounds: Bounds): Promise<boolean> {
  const real = await realOrSelf(path);
  const closed = await Promise.all(bounds.closed.map(realOrSelf));
  return closed.some((folder) => isWithin(path, folder) || isWithin(real, folder));
}
