import { execFile } from 'node:child_process';
import { expandBraces } from './name-masks.js';

/** A path Claude's sandbox would read as a pattern rather than as itself. */
const PATTERN_CHARACTERS = /[*?[\]{}\\!]/;
/** Past this many, the settings file would swell: the patterns are kept instead. */
const MAX_PATHS = 2000;

/**
 * The zero-access names (`.env*`, `*.pem`) inside the toolchains of PATH (`~/.pyenv`, `~/.nvm`),
 * found by one `find` in the background and kept, instead of handed to Claude's sandbox as
 * `<toolchain>/**\/<name>` patterns that it searches at every command: a `~/.pyenv` of 130,000
 * entries cost 0.7 CPU s a command. Commands cannot write in a toolchain (it is exposed read-only),
 * so a session cannot plant a name there itself; what another program adds is found at the next
 * refresh (see `maxAgeMs`). The session's own folders keep their patterns: a
 * session writes there.
 *
 * Fail closed: until a search has finished, after one failed, when a path would read as a pattern,
 * or when there are too many, `paths` answers null and the caller keeps the patterns.
 */
export class ToolchainMasks {
  private readonly found = new Map<string, { paths: string[] | null; at: number }>();
  private readonly searching = new Set<string>();

  constructor(
    private readonly find: string | null,
    /** A read of an answer older than this starts a new search. */
    private readonly refreshMs = 30_000,
    /**
     * Past this, an answer is not used. A session keeps the list it started with for its whole
     * life anyway; this bounds how old a list a new session can start with on a quiet daemon.
     */
    private readonly maxAgeMs = 600_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The masked paths under `roots` when a recent search knows them; null otherwise. */
  paths(roots: string[], names: string[]): string[] | null {
    if (roots.length === 0 || names.length === 0) return [];
    const key = JSON.stringify([roots, names]);
    const known = this.found.get(key);
    const age = known ? this.now() - known.at : Infinity;
    if (age >= this.refreshMs) this.search(key, roots, names);
    return known && age < this.maxAgeMs ? known.paths : null;
  }

  /** Resolves once no search is running (tests, and a daemon that wants them ready). */
  async settled(): Promise<void> {
    while (this.searching.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private search(key: string, roots: string[], names: string[]): void {
    if (this.find === null || this.searching.has(key)) return;
    this.searching.add(key);
    const named = names
      .flatMap(expandBraces)
      .flatMap((name, i) => (i === 0 ? ['-name', name] : ['-o', '-name', name]));
    // Links are listed by their own name, never followed (find's default); a matching folder is
    // listed and not entered.
    const args = [...roots, '-mindepth', '1', '(', ...named, ')', '-print0', '-prune'];
    execFile(
      this.find,
      args,
      { encoding: 'latin1', maxBuffer: 8 * 1024 * 1024, timeout: 60_000 },
      (error, stdout) => {
        this.searching.delete(key);
        // find exits 1 when a folder could not be read: what it could read is still listed, but
        // an unreadable folder is not proof of having no such name, so the patterns stay.
        this.found.set(key, { paths: error ? null : usable(stdout), at: this.now() });
      },
    );
  }
}

function usable(output: string): string[] | null {
  const paths = output.split('\0').filter((path) => path !== '');
  if (paths.length > MAX_PATHS) return null;
  // latin1 keeps every byte; a name that is not UTF-8 would not survive the settings file.
  const decoded = paths.map((path) => Buffer.from(path, 'latin1').toString('utf8'));
  if (decoded.some((path) => PATTERN_CHARACTERS.test(path) || path.includes('\uFFFD'))) return null;
  return decoded;
}
