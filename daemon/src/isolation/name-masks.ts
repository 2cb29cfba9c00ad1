/**
 * Protected names (`.env*`, `*.pem`) are found by `find` in the process that starts bubblewrap,
 * never on the daemon's event loop: the launcher below runs `find`, whose output (NUL-separated
 * bubblewrap arguments) bubblewrap reads with `--args`, after the arguments that expose folders
 * (a later mount covers an earlier one). Links are not followed nor masked (bubblewrap would mount
 * on their target; what a link points to is masked where it lies, or is not exposed at all).
 */

/** A word for a POSIX shell script: single-quoted, a quote inside closed and escaped. */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `{a,b}` alternatives of a rule's name, which `find -name` would read literally. */
export function expandBraces(name: string): string[] {
  const open = name.indexOf('{');
  if (open < 0) return [name];
  let depth = 0;
  const cuts: number[] = [];
  for (let i = open; i < name.length; i++) {
    const c = name[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      if (cuts.length === 0) break; // `{x}`: no alternative, a literal brace.
      const head = name.slice(0, open);
      const tail = name.slice(i + 1);
      const bounds = [open, ...cuts, i];
      const parts = bounds.slice(0, -1).map((start, k) => name.slice(start + 1, bounds[k + 1]));
      return parts.flatMap((part) => expandBraces(`${head}${part}${tail}`));
    } else if (c === ',' && depth === 1) cuts.push(i);
  }
  return [name];
}

/**
 * find's arguments: each entry of `roots` named like one of `names` printed as the bubblewrap
 * arguments that mask it (a folder with an empty read-only tmpfs, anything else with an empty
 * read-only file), NUL-separated. Links are skipped, masked folders not entered.
 */
export function maskFinder(roots: string[], names: string[]): string[] {
  const patterns = names.flatMap(expandBraces);
  const named = patterns.flatMap((name, i) => (i === 0 ? ['-name', name] : ['-o', '-name', name]));
  return [
    ...roots,
    // The roots themselves are the session's folders, exposed as a whole.
    ...['-mindepth', '1'],
    ...['(', '-type', 'l', '-prune', ')', '-o'],
    ...['(', ...named, ')'],
    ...['(', '-type', 'd', '-printf', '--tmpfs\\0%p\\0--remount-ro\\0%p\\0', '-prune'],
    ...['-o', '-printf', '--ro-bind\\0/dev/null\\0%p\\0', ')'],
  ];
}

export interface MaskedLaunch {
  find: string;
  roots: string[];
  names: string[];
  bwrap: string;
  /** bubblewrap's arguments before the masks. */
  before: string[];
  /** What follows bubblewrap's `--` in the script: `"$@"`, or `"$0" "$@"` in a shell wrapper. */
  command: string;
}

/**
 * A POSIX sh script: the masks found now by `find`, then bubblewrap with them, the command's
 * standard input given back (the masks come through descriptor 3). Its exit status is the
 * command's. With no name to mask, no walk at all.
 */
export function maskedLaunchScript(launch: MaskedLaunch): string {
  const bwrap = [launch.bwrap, ...launch.before].map(shQuote).join(' ');
  const existing = launch.roots.length > 0 && launch.names.length > 0;
  const finder = existing
    ? `${[launch.find, ...maskFinder(launch.roots, launch.names)].map(shQuote).join(' ')} 2>/dev/null`
    : ':';
  return `{ ${finder} | exec ${bwrap} --args 3 -- ${launch.command} 3<&0 <&4 4<&-; } 4<&0`;
}
