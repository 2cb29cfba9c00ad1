/** `/bin/bash -lc '<script>'` as Codex shows a command; the script is one single-quoted word. */
const WRAPPED = /^(?:\/(?:usr\/)?bin\/)?(?:bash|sh|zsh) -l?c '((?:[^']|'\\''|'"'"')*)'$/;

/**
 * The script a Codex command runs, so that rules written for Claude's Bash (`git status`, …) match
 * it too. Anything that is not exactly one wrapped script is returned unchanged: the engine reads
 * `bash -c` scripts itself, so nothing escapes the rules either way.
 */
export function unwrapShell(command: string): string {
  const match = WRAPPED.exec(command);
  if (!match) return command;
  return match[1]!.replaceAll(`'\\''`, "'").replaceAll(`'"'"'`, "'");
}
